import ScreenKit
import Signals

/// Text of several lines: Enter starts a new line, the lines wrap at the editor's width (after
/// a space where one fits) and scroll under its ``lines`` rows so that the cursor is always in
/// view. Its last column is a scroll bar while the text has more rows than it shows.
///
/// It keeps what it is given as a ``TextField`` does (graphemes, a Tab as a space, escape
/// sequences and other controls dropped), but keeps line breaks: a CR LF or a CR alone in a
/// paste becomes one line break. It takes no more than ``maxLength`` characters: a paste is cut
/// to the room left and the editor says how many characters it did not take, until the next
/// key.
///
/// Keys: Left and Right move by a character (across lines), Up and Down by a row (keeping the
/// column they started from), Page Up and Page Down by a screenful, Home (Ctrl-A) and End
/// (Ctrl-E) to the start and end of the line, Backspace and Delete (joining lines at a break),
/// Ctrl-U deletes from the start of the line to the cursor. Up in the first row goes to the
/// start of the text and Down in the last to its end. Tab leaves the editor.
@MainActor
public final class TextEditor: View {
    /// The text. Set by code, it puts the cursor at the end; the person's edits keep theirs.
    public var text: String {
        didSet {
            // Scalar by scalar: `==` would call "é" and "e\u{301}" the same, and keep the old
            // characters.
            guard !text.unicodeScalars.elementsEqual(oldValue.unicodeScalars) else { return }
            characters = Array(text)
            cursor = characters.count
            setNeedsDisplay()
        }
    }
    public var placeholder: String { didSet { setNeedsDisplay() } }
    /// The most characters a person's typing and pasting leave in the text.
    public let maxLength: Int
    /// Whether the editor shows how much of ``maxLength`` the text uses, in a row under it.
    public let showsCount: Bool
    /// How many rows of text it shows at once.
    public let lines: Int
    /// The cursor, as a character (grapheme) offset into `text`: 0 through its count.
    public private(set) var cursor = 0
    private var characters: [Character] { didSet { wrapped = nil } }
    /// The rows of `characters` at the width they were wrapped at, until either changes: drawing,
    /// the cursor and ↑ ↓ share one wrapping of the text per edit.
    private var wrapped: (width: Int, rows: WrappedRows)?
    /// The first row shown, set when drawing so that the cursor's row is in view.
    private var topRow = 0
    /// The column ↑ and ↓ keep, from the first of them in a row; any other key forgets it.
    private var goalColumn: Int?
    /// How many characters of the last insertion did not fit in ``maxLength``: said until the
    /// next key.
    private var notTaken = 0
    private let changes = PublishSubject<String, Never>()

    public init(text: String = "", placeholder: String = "", maxLength: Int = ScreenKit.TextEditor.longestText, showsCount: Bool = false, lines: Int = 4) {
        self.text = text
        self.placeholder = placeholder
        self.maxLength = maxLength
        self.showsCount = showsCount
        self.lines = max(1, lines)
        characters = Array(text)
        super.init()
        cursor = characters.count
        heightPolicy = .fixed(self.lines + (showsCount ? 1 : 0))
    }

    /// Every edit the person makes (not changes made by code).
    public nonisolated var textChanges: Signal<String, Never> { changes.signal }

    public override var canFocus: Bool { true }

    /// The columns the text wraps at: all but the scroll bar's.
    private var textWidth: Int { max(1, frame.width - 1) }
    /// The rows of text the editor has room for (its frame less the count's row).
    private var textRows: Int { max(0, frame.height - (showsCount ? 1 : 0)) }

    private var layout: WrappedRows {
        if let wrapped, wrapped.width == textWidth { return wrapped.rows }
        let rows = WrappedRows(characters, width: textWidth)
        wrapped = (textWidth, rows)
        return rows
    }

    public override func handle(_ key: Key) -> Bool {
        let cursor = min(self.cursor, characters.count)
        let goal = goalColumn
        goalColumn = nil
        if notTaken > 0 {
            notTaken = 0
            setNeedsDisplay()
        }
        switch key {
        case .character(let character): insert(String(character), at: cursor)
        case .paste(let pasted): insert(pasted, at: cursor)
        case .enter: insert("\n", at: cursor)
        case .backspace:
            guard cursor > 0 else { return true }
            replace(index(cursor - 1)..<index(cursor), with: "")
        case .delete:
            guard cursor < characters.count else { return true }
            replace(index(cursor)..<index(cursor + 1), with: "")
        case .left: move(to: max(0, cursor - 1))
        case .right: move(to: min(characters.count, cursor + 1))
        case .up, .down, .pageUp, .pageDown:
            let rows = key == .up || key == .down ? 1 : max(1, textRows)
            moveRows(key == .up || key == .pageUp ? -rows : rows, from: cursor, keeping: goal)
        case .home, .control("a"): move(to: lineStart(cursor))
        case .end, .control("e"): move(to: lineEnd(cursor))
        case .control("u"):
            let start = lineStart(cursor)
            if start < cursor { replace(index(start)..<index(cursor), with: "") }
        default:
            return false
        }
        return true
    }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }

    /// Where the line holding `offset` starts: after the line break before it.
    private func lineStart(_ offset: Int) -> Int {
        var start = offset
        while start > 0, !WrappedRows.isBreak(characters[start - 1]) { start -= 1 }
        return start
    }

    /// Where the line holding `offset` ends: at the line break after it, or the text's end.
    private func lineEnd(_ offset: Int) -> Int {
        var end = offset
        while end < characters.count, !WrappedRows.isBreak(characters[end]) { end += 1 }
        return end
    }

    /// Moves `count` rows down (negative: up) at the column the moves started from; past the
    /// first row to the text's start, past the last to its end.
    private func moveRows(_ count: Int, from cursor: Int, keeping goal: Int?) {
        let layout = layout
        let row = layout.row(of: cursor)
        let column = goal ?? layout.column(of: cursor)
        let target = row + count
        if target < 0 {
            move(to: 0)
        } else if target >= layout.rows.count {
            move(to: characters.count)
        } else {
            move(to: layout.offset(inRow: target, atColumn: column))
        }
        goalColumn = column
    }

    /// Inserts what was typed or pasted, as the editor keeps it, cut to the room ``maxLength``
    /// leaves (the rest counted in `notTaken`).
    private func insert(_ typed: String, at cursor: Int) {
        var clean = TypedText.cleaned(typed, keepingLineBreaks: true)
        guard !clean.isEmpty else { return }
        let room = max(0, maxLength - characters.count)
        if clean.count > room {
            notTaken = clean.count - room
            clean = String(clean.prefix(room))
            setNeedsDisplay()
            guard !clean.isEmpty else { return }
        }
        let at = index(cursor)
        replace(at..<at, with: clean)
    }

    /// Replaces `range` with `replacement`, puts the cursor after it (at the next grapheme
    /// boundary), and tells `textChanges`.
    private func replace(_ range: Range<String.Index>, with replacement: String) {
        let edit = TextEdit(replacing: range, of: text, with: replacement)
        text = edit.text
        cursor = edit.cursor
        if edit.changed { changes.send(edit.text) }
        setNeedsDisplay()
    }

    private func move(to cursor: Int) {
        self.cursor = cursor
        setNeedsDisplay()
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard frame.width > 0, frame.height > 0 else { return }
        let layout = layout
        let height = textRows
        let cursorRow = layout.row(of: min(cursor, characters.count))
        // The cursor's row in view; no empty rows below the text while it could fill them.
        topRow = min(max(topRow, cursorRow - height + 1), cursorRow)
        topRow = max(0, min(topRow, layout.rows.count - height))
        let style = isFocused ? Style(underline: true) : Style.plain
        for line in 0..<height {
            let y = frame.y + line
            let rowIndex = topRow + line
            var shown = ""
            if rowIndex < layout.rows.count {
                let row = layout.rows[rowIndex]
                shown = String(characters[row])
            }
            if characters.isEmpty, line == 0, !placeholder.isEmpty {
                buffer.write(DisplayWidth.truncate(placeholder, to: textWidth), x: frame.x, y: y, style: Style(dim: true), clip: frame)
                continue
            }
            let used = buffer.write(shown, x: frame.x, y: y, style: style, clip: frame)
            // Underline the empty part too, so the editor's box is visible while focused.
            if isFocused, used < textWidth {
                buffer.write(String(repeating: " ", count: textWidth - used), x: frame.x + used, y: y, style: style, clip: frame)
            }
        }
        drawScrollBar(into: &buffer, rows: layout.rows.count, height: height)
        drawCount(into: &buffer, below: height)
    }

    /// The last column, while there are more rows than shown: a track with a thumb the size and
    /// place of the rows in view.
    private func drawScrollBar(into buffer: inout ScreenBuffer, rows: Int, height: Int) {
        guard rows > height, height > 0, frame.width > 1 else { return }
        let x = frame.x + frame.width - 1
        let thumb = max(1, height * height / rows)
        let start = min(height - thumb, (topRow * height + rows / 2) / rows)
        for line in 0..<height {
            let inThumb = line >= start && line < start + thumb
            buffer.write(inThumb ? "┃" : "│", x: x, y: frame.y + line, style: Style(dim: !inThumb), clip: frame)
        }
    }

    /// The count's row ("12/500"), and what a cut paste did not take: there, or without a count
    /// over the last row of text.
    private func drawCount(into buffer: inout ScreenBuffer, below height: Int) {
        let cut = notTaken > 0 ? "\(notTaken) not taken (\(maxLength) at most)" : ""
        if showsCount, frame.height > height {
            let count = "\(characters.count)/\(maxLength)" + (cut.isEmpty ? "" : " · " + cut)
            buffer.write(DisplayWidth.truncate(count, to: frame.width), x: frame.x, y: frame.y + height, style: Style(dim: true), clip: frame)
        } else if !cut.isEmpty, height > 0 {
            let shown = DisplayWidth.truncate(cut, to: frame.width)
            let x = frame.x + frame.width - DisplayWidth.of(shown)
            buffer.write(shown, x: x, y: frame.y + height - 1, style: Style(dim: true), clip: frame)
        }
    }

    public override var cursorPosition: Point? {
        let layout = layout
        let offset = min(cursor, characters.count)
        let row = layout.row(of: offset) - topRow
        guard row >= 0, row < textRows else { return nil }
        return Point(x: frame.x + min(layout.column(of: offset), textWidth - 1), y: frame.y + row)
    }
}
