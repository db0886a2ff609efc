/// A position on the screen: column `x`, row `y`, from the top left (0, 0).
public struct Point: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// A width and a height, in cells.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle inside `other`.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// This rectangle shrunk by `amount` on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }
}

/// One cell: a grapheme and its style. The right half of a wide grapheme is a continuation
/// cell (empty text) so that every column is accounted for.
///
/// A cell keeps the columns its text takes (``DisplayWidth``), worked out when the text is set,
/// so the renderer never measures text.
public struct Cell: Sendable, Hashable {
    public var text: String {
        get { storage }
        set {
            storage = newValue
            columns = UInt32(min(2, DisplayWidth.of(newValue)))
        }
    }
    // Laid out without padding (16 + 4 + 4 bytes; `RendererDiffTests.aCellHasNoPadding`), so
    // equal bytes are equal cells and the renderer compares and hashes whole rows as bytes
    // first (`Renderer.rowsEqual`, `Renderer.rowHash`).
    private var storage: String
    public var style: Style
    /// The columns `text` takes: 0 (a continuation), 1 or 2.
    private(set) var columns: UInt32

    public init(_ text: String = " ", style: Style = .plain) {
        storage = text
        columns = UInt32(min(2, DisplayWidth.of(text)))
        self.style = style
    }

    /// A cell whose text is known to take `columns` columns.
    init(_ text: String, columns: Int, style: Style) {
        storage = text
        self.columns = UInt32(columns)
        self.style = style
    }

    public static let blank = Cell()

    public var isContinuation: Bool { storage.isEmpty }
}

/// A grid of styled cells the views draw into and the renderer diffs.
public struct ScreenBuffer: Sendable, Equatable {
    public private(set) var size: Size
    private var cells: [Cell]
    /// Where the terminal cursor should be after drawing (for text fields), if shown.
    public var cursor: Point?

    public init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: max(0, size.width * size.height))
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
        set { cells[y * size.width + x] = newValue }
    }

    /// Calls `body` with the cells, row after row.
    func withCells<Result>(_ body: (UnsafeBufferPointer<Cell>) -> Result) -> Result {
        cells.withUnsafeBufferPointer(body)
    }

    /// Every cell back to blank.
    public mutating func clear() {
        for index in cells.indices { cells[index] = .blank }
        cursor = nil
    }

    /// Fills `rect` (clipped to the screen) with `character` in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let area = rect.intersection(Rect(x: 0, y: 0, width: size.width, height: size.height))
        guard !area.isEmpty else { return }
        let cell = Cell(String(character), style: style)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = cell }
        }
    }

    /// Writes `text` at (`x`, `y`) in `style`, inside `clip` (the screen by default). A wide
    /// grapheme that would straddle the clip's right edge is replaced by a space; one whose left
    /// half would be cut is skipped. Returns the column after the last one written.
    ///
    /// Printable ASCII not followed by a non-ASCII scalar (which could join it into a larger
    /// grapheme) is taken a byte at a time; everything else a grapheme at a time.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let area = (clip ?? screen).intersection(screen)
        guard y >= area.y, y < area.maxY else { return x }
        var column = x
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte >= 0x20, byte < 0x7F, next == utf8.endIndex || utf8[next] < 0x80 {
                if column >= area.maxX { break }
                if column >= area.x {
                    clearWideNeighbours(x: column, y: y, width: 1)
                    self[column, y] = Cell(Self.asciiText[Int(byte) - 0x20], columns: 1, style: style)
                }
                column += 1
                index = next
                continue
            }
            guard put(text[index], x: x, y: y, column: &column, area: area, style: style) else { break }
            index = text.index(after: index)
        }
        return column
    }

    /// Each printable ASCII character as a one-character string, from space on.
    private static let asciiText: [String] = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }

    /// Writes one grapheme at `column` (advancing it) for ``write(_:x:y:style:clip:)``; returns
    /// false once the clip's right edge is reached.
    private mutating func put(_ character: Character, x: Int, y: Int, column: inout Int, area: Rect, style: Style) -> Bool {
        let width = DisplayWidth.of(character)
        if width == 0 {
            // A grapheme that takes no column (a control, a zero-width space, a combining
            // mark with no base) joins the previous cell only if the two make one
            // grapheme; otherwise it is not drawn. A cell never holds two graphemes.
            if column - 1 >= area.x, column - 1 < area.maxX, column > x {
                let target = self[column - 1, y].isContinuation ? column - 2 : column - 1
                guard target >= area.x else { return true }
                var previous = self[target, y]
                let joined = previous.text + String(character)
                if joined.count == 1 {
                    previous.text = joined
                    self[target, y] = previous
                }
            }
            return true
        }
        if column >= area.maxX { return false }
        if column < area.x {
            column += width
            return true
        }
        if width == 2 && column + 1 >= area.maxX {
            clearWideNeighbours(x: column, y: y, width: 1)
            self[column, y] = Cell(" ", columns: 1, style: style)
            column += 1
            return false
        }
        clearWideNeighbours(x: column, y: y, width: width)
        self[column, y] = Cell(String(character), columns: width, style: style)
        if width == 2 { self[column + 1, y] = Cell("", columns: 0, style: style) }
        column += width
        return true
    }

    /// Overwriting half of a wide grapheme blanks its other half.
    private mutating func clearWideNeighbours(x: Int, y: Int, width: Int) {
        if self[x, y].isContinuation, x > 0 { self[x - 1, y] = Cell(" ", columns: 1, style: self[x - 1, y].style) }
        let end = x + width
        if end < size.width, self[end, y].isContinuation { self[end, y] = Cell(" ", columns: 1, style: self[end, y].style) }
    }

    /// The visible text of each row (continuation cells contribute nothing), trailing spaces kept.
    public var lines: [String] {
        (0..<size.height).map { y in
            (0..<size.width).reduce(into: "") { line, x in line += self[x, y].text }
        }
    }

    /// The visible text as one string, rows joined with newlines, trailing spaces trimmed.
    public var text: String {
        lines.map { line in
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed.removeLast() }
            return String(trimmed)
        }.joined(separator: "\n")
    }
}
