import Signals

/// A terminal in memory: it interprets the ANSI output written to it (cursor moves, clears,
/// SGR styles, UTF-8 text with wide graphemes) into a grid, so tests can check what a person
/// would see, and counts the bytes written.
public final class InMemoryTerminal: TerminalDevice, Sendable {
    private let state: Locked<TerminalEmulation>

    public init(size: Size) {
        state = Locked(TerminalEmulation(size: size))
    }

    public var size: Size { state.withLock { $0.size } }
    /// The cells as drawn so far.
    public var grid: ScreenBuffer { state.withLock { $0.grid } }
    /// Bytes written in all.
    public var bytesWritten: Int { state.withLock { $0.bytesWritten } }
    /// Calls to `write` (one per frame).
    public var writes: Int { state.withLock { $0.writes } }
    /// The rows that the last `write` put text in (not counting rows it only scrolled).
    public var rowsWrittenLast: Set<Int> { state.withLock { $0.rowsWrittenLast } }
    /// Bytes in the last `write`.
    public var bytesWrittenLast: Int { state.withLock { $0.bytesWrittenLast } }
    /// Text that fell outside the window (written past the right edge or below the bottom, where
    /// a real terminal would wrap or scroll), and cursor moves outside it, counted.
    public var overflows: Int { state.withLock { $0.overflows } }
    public var cursor: Point { state.withLock { $0.cursor } }
    public var isCursorVisible: Bool { state.withLock { $0.isCursorVisible } }
    public var isAlternateScreen: Bool { state.withLock { $0.isAlternateScreen } }
    public var isBracketedPaste: Bool { state.withLock { $0.isBracketedPaste } }
    public var isRaw: Bool { state.withLock { $0.isRaw } }

    /// Simulates the user resizing the window (the grid keeps what fits).
    public func resize(to size: Size) {
        state.withLock { $0.resize(to: size) }
    }

    public func enterRawMode() throws { state.withLock { $0.setRaw(true) } }

    public func restore() { state.withLock { $0.setRaw(false) } }

    /// As the process's terminal does: leaves the alternate screen and raw mode, is "stopped"
    /// (counted in `suspensions`), then takes the terminal back.
    public func suspend() {
        state.withLock {
            $0.write(Array(TerminalRestore.leaveSequence.utf8))
            $0.setRaw(false)
            $0.suspensions += 1
            $0.events.append("stopped")
            $0.setRaw(true)
            $0.write(Array(TerminalRestore.enterSequence.utf8))
        }
    }

    /// Times `suspend()` was called.
    public var suspensions: Int { state.withLock { $0.suspensions } }
    /// Mode changes in order: "raw", "cooked", "alternate screen", "main screen",
    /// "cursor hidden", "cursor shown", "stopped", "cleared".
    public var events: [String] { state.withLock { $0.events } }

    /// What is on screen, trailing spaces trimmed.
    public var text: String { state.withLock { $0.text } }

    /// Row `y` as seen, trailing spaces trimmed.
    public func line(_ y: Int) -> String { state.withLock { $0.line(y) } }

    /// The style of the cell at (`x`, `y`).
    public func style(x: Int, y: Int) -> Style { state.withLock { $0.style(x: x, y: y) } }

    public func write(_ bytes: [UInt8]) {
        state.withLock { $0.write(bytes) }
    }
}

/// The interpreter behind ``InMemoryTerminal``: the grid, cursor, modes and pending bytes.
struct TerminalEmulation {
    var size: Size
    var grid: ScreenBuffer
    var bytesWritten = 0
    var writes = 0
    var rowsWrittenLast: Set<Int> = []
    var bytesWrittenLast = 0
    var overflows = 0
    /// The scroll region (DECSTBM), rows `scrollTop...scrollBottom`.
    var scrollTop = 0
    var scrollBottom: Int
    var cursor = Point(x: 0, y: 0)
    var isCursorVisible = true
    var isAlternateScreen = false
    var isBracketedPaste = false
    var isRaw = false
    var suspensions = 0
    var events: [String] = []
    var style = Style.plain
    var pending: [UInt8] = []

    init(size: Size) {
        self.size = size
        grid = ScreenBuffer(size: size)
        scrollBottom = size.height - 1
    }

    mutating func setRaw(_ raw: Bool) {
        isRaw = raw
        events.append(raw ? "raw" : "cooked")
    }

    mutating func resize(to size: Size) {
        var next = ScreenBuffer(size: size)
        for y in 0..<min(size.height, self.size.height) {
            for x in 0..<min(size.width, self.size.width) { next[x, y] = grid[x, y] }
        }
        self.size = size
        grid = next
        scrollTop = 0
        scrollBottom = size.height - 1
    }

    var text: String { grid.text }

    func line(_ y: Int) -> String {
        var line = Substring(grid.lines[y])
        while line.last == " " { line.removeLast() }
        return String(line)
    }

    func style(x: Int, y: Int) -> Style { grid[x, y].style }

    mutating func write(_ bytes: [UInt8]) {
        bytesWritten += bytes.count
        bytesWrittenLast = bytes.count
        rowsWrittenLast = []
        writes += 1
        pending += bytes
        interpret()
    }

    mutating func interpret() {
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(decoding: text, as: UTF8.self) { put(character) }
            text.removeAll()
        }
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                flushText()
                guard index + 1 < pending.count else { break }
                if pending[index + 1] == UInt8(ascii: "[") {
                    var end = index + 2
                    while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
                    guard end < pending.count else { break }
                    let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
                    control(parameters, final: pending[end])
                    index = end + 1
                } else {
                    if pending[index + 1] == UInt8(ascii: "M") { reverseIndex() }
                    index += 2
                }
                continue
            }
            if byte == 0x0D { flushText(); cursor.x = 0; index += 1; continue }
            if byte == 0x0A { flushText(); lineFeed(); index += 1; continue }
            text.append(byte)
            index += 1
        }
        flushText()
        pending.removeFirst(index)
    }

    mutating func put(_ character: Character) {
        let width = DisplayWidth.of(character)
        if width == 0 { return }
        guard cursor.y < size.height, cursor.x + width <= size.width else {
            overflows += 1
            return
        }
        grid.write(String(character), x: cursor.x, y: cursor.y, style: style)
        rowsWrittenLast.insert(cursor.y)
        cursor.x += width
    }

    /// LF: down a row, scrolling the region up at its bottom margin.
    mutating func lineFeed() {
        if cursor.y == scrollBottom {
            scrollRegion(by: 1)
        } else if cursor.y < size.height - 1 {
            cursor.y += 1
        } else {
            overflows += 1
        }
    }

    /// ESC M: up a row, scrolling the region down at its top margin.
    mutating func reverseIndex() {
        if cursor.y == scrollTop {
            scrollRegion(by: -1)
        } else if cursor.y > 0 {
            cursor.y -= 1
        }
    }

    mutating func scrollRegion(by distance: Int) {
        guard scrollTop < scrollBottom else { return }
        grid.scroll(Scroll(top: scrollTop, bottom: scrollBottom, distance: distance))
    }

    mutating func control(_ parameters: String, final: UInt8) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0.filter(\.isNumber)) }
        switch final {
        case UInt8(ascii: "H"), UInt8(ascii: "f"):
            let row = (numbers.first ?? 1) ?? 1
            let column = (numbers.count > 1 ? numbers[1] : 1) ?? 1
            if row > size.height || column > size.width { overflows += 1 }
            cursor = Point(x: max(0, min(size.width - 1, column - 1)), y: max(0, min(size.height - 1, row - 1)))
        case UInt8(ascii: "r"):
            let top = (numbers.first ?? 1) ?? 1
            let bottom = (numbers.count > 1 ? numbers[1] : size.height) ?? size.height
            if top < bottom, bottom <= size.height {
                scrollTop = max(0, top - 1)
                scrollBottom = bottom - 1
            } else if parameters.isEmpty {
                scrollTop = 0
                scrollBottom = size.height - 1
            }
            cursor = Point(x: 0, y: 0)
        case UInt8(ascii: "J"):
            if parameters == "2" { grid.clear(); events.append("cleared") }
        case UInt8(ascii: "K"):
            grid.fill(Rect(x: cursor.x, y: cursor.y, width: size.width - cursor.x, height: 1))
        case UInt8(ascii: "m"):
            applySGR(numbers.map { $0 ?? 0 })
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            let on = final == UInt8(ascii: "h")
            switch parameters {
            case "?25": isCursorVisible = on; events.append(on ? "cursor shown" : "cursor hidden")
            case "?1049": isAlternateScreen = on; events.append(on ? "alternate screen" : "main screen")
            case "?2004": isBracketedPaste = on
            default: break
            }
        default:
            break
        }
    }

    mutating func applySGR(_ codes: [Int]) {
        var index = 0
        let codes = codes.isEmpty ? [0] : codes
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0: style = .plain
            case 1: style.bold = true
            case 2: style.dim = true
            case 4: style.underline = true
            case 7: style.reverse = true
            case 22: style.bold = false; style.dim = false
            case 24: style.underline = false
            case 27: style.reverse = false
            case 30...37: style.foreground = TerminalColor.standard(code - 30)
            case 39: style.foreground = nil
            case 40...47: style.background = TerminalColor.standard(code - 40)
            case 49: style.background = nil
            case 90...97: style.foreground = TerminalColor.standard(code - 90 + 8)
            case 100...107: style.background = TerminalColor.standard(code - 100 + 8)
            case 38, 48:
                if index + 2 < codes.count, codes[index + 1] == 5 {
                    let color = TerminalColor.indexed(UInt8(clamping: codes[index + 2]))
                    if code == 38 { style.foreground = color } else { style.background = color }
                    index += 2
                }
            default: break
            }
            index += 1
        }
    }
}

/// Where frames are written: a real terminal, or one in memory for tests.
public protocol TerminalDevice: AnyObject, Sendable {
    /// The size in cells.
    var size: Size { get }
    /// Writes bytes (one call per frame).
    func write(_ bytes: [UInt8])
    /// Raw mode, alternate screen, bracketed paste, hidden cursor.
    func enterRawMode() throws
    /// Undoes everything `enterRawMode` did.
    func restore()
    /// Suspends the app (Ctrl-Z): restores the terminal, stops the process until it is
    /// continued, then takes the terminal back (raw mode, alternate screen). The caller repaints.
    func suspend()
    /// Starts delivering input bytes (on any thread); `nil` when input is fed by other means
    /// (tests). Disposing stops reading.
    func startReading(_ onBytes: @escaping @Sendable ([UInt8]) -> Void) -> (any Disposable)?
    /// Whether this is the process's own terminal, so the app should handle its signals.
    var isProcessTerminal: Bool { get }
}

extension InMemoryTerminal {
    public func startReading(_ onBytes: @escaping @Sendable ([UInt8]) -> Void) -> (any Disposable)? { nil }
    public var isProcessTerminal: Bool { false }
}
