import ScreenKit
import Signals

/// An editable line of text: cursor, editing keys, paste, a placeholder while empty. A secure
/// field shows a bullet per character and never the text.
///
/// It takes any Unicode text. The text is a `String` and the cursor moves by grapheme (what a
/// person sees as one character): a combining mark or a zero-width joiner typed after a
/// character joins it, and Left, Right, Backspace and Delete step over the whole grapheme.
/// After an edit the cursor stays where it was in the text, moved forward to the next grapheme
/// boundary if the edit joined graphemes around it.
///
/// Control characters in typed or pasted text: a Tab becomes a space (the field has one line);
/// a terminal escape sequence (colours copied with the text, a hyperlink, a title) is dropped
/// whole; every other control character (C0 and C1, newlines and Esc included) is dropped. Invalid
/// UTF-8 has already become U+FFFD in the key parser. Text set by code is kept as it is; a
/// control character in it takes no column and is not drawn.
///
/// Keys: Left, Right, Home (Ctrl-A), End (Ctrl-E), Backspace, Delete, Ctrl-U (clear), Enter
/// (submit). The text scrolls so that the cursor is always in view, and scrolls back when the
/// text gets shorter.
///
/// While ``isBusy`` (the action its Enter applies is running and takes no other), the field ends
/// in a dim "…", and an Enter is not submitted: the field says so at its end ("… still running:
/// Enter not taken") until the work is done.
@MainActor
public final class TextField: View {
    /// The text. Set by code, it puts the cursor at the end; the user's edits keep theirs.
    public var text: String {
        didSet {
            guard text != oldValue else { return }
            cursor = text.count
            setNeedsDisplay()
        }
    }
    public var placeholder: String { didSet { setNeedsDisplay() } }
    public let isSecure: Bool
    /// Whether Enter cannot be taken now (see above).
    public var isBusy = false {
        didSet {
            guard isBusy != oldValue else { return }
            if !isBusy { refusedEnter = false }
            setNeedsDisplay()
        }
    }
    /// An Enter came while busy: said until the work is done.
    private var refusedEnter = false
    /// The cursor, as a character (grapheme) offset into `text`: 0 through `text.count`.
    public private(set) var cursor = 0
    /// The first character shown, set when drawing so that the cursor is in view.
    private var scroll = 0
    private let changes = PublishSubject<String, Never>()
    private let submits = PublishSubject<String, Never>()

    public init(text: String = "", placeholder: String = "", isSecure: Bool = false) {
        self.text = text
        self.placeholder = placeholder
        self.isSecure = isSecure
        super.init()
        cursor = text.count
        heightPolicy = .fixed(1)
    }

    /// Every edit the user makes (not changes made by code).
    public nonisolated var textChanges: Signal<String, Never> { changes.signal }
    /// The text each time the user presses Enter.
    public nonisolated var submissions: Signal<String, Never> { submits.signal }

    public override var canFocus: Bool { true }

    var displayed: String { isSecure ? String(repeating: "•", count: text.count) : text }

    public override func handle(_ key: Key) -> Bool {
        let cursor = min(self.cursor, text.count)
        switch key {
        case .character(let character):
            insert(String(character), at: cursor)
        case .paste(let pasted):
            insert(pasted, at: cursor)
        case .backspace:
            guard cursor > 0 else { return true }
            replace(index(cursor - 1)..<index(cursor), with: "")
        case .delete:
            guard cursor < text.count else { return true }
            replace(index(cursor)..<index(cursor + 1), with: "")
        case .left: move(to: max(0, cursor - 1))
        case .right: move(to: min(text.count, cursor + 1))
        case .home, .control("a"): move(to: 0)
        case .end, .control("e"): move(to: text.count)
        case .control("u"): replace(text.startIndex..<text.endIndex, with: "")
        case .enter:
            guard !isBusy else {
                refusedEnter = true
                setNeedsDisplay()
                return true
            }
            submits.send(text)
        default:
            return false
        }
        return true
    }

    /// `text` as the field takes it: ``TypedText/cleaned(_:)``, as every view layer does.
    static func sanitized(_ text: String) -> String {
        TypedText.cleaned(text)
    }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }

    private func insert(_ typed: String, at cursor: Int) {
        let clean = Self.sanitized(typed)
        guard !clean.isEmpty else { return }
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
        guard frame.width > 0 else { return }
        let marker = busyMarker
        let width = frame.width - DisplayWidth.of(marker)
        // Drawn last, over any text that runs past `width`.
        defer {
            if !marker.isEmpty { buffer.write(marker, x: frame.x + width, y: frame.y, style: Style(dim: true), clip: frame) }
        }
        let shown = Array(displayed)
        scrollToCursor(in: shown, width: width)
        if text.isEmpty && !placeholder.isEmpty {
            buffer.write(DisplayWidth.truncate(placeholder, to: width), x: frame.x, y: frame.y, style: Style(dim: true), clip: frame)
        } else {
            buffer.write(String(shown[scroll...]), x: frame.x, y: frame.y, style: isFocused ? Style(underline: true) : .plain, clip: frame)
        }
        if isFocused {
            // Underline the empty part too, so the field is visible.
            let used = DisplayWidth.of(String(shown[scroll...]))
            if text.isEmpty == false || placeholder.isEmpty, used < width {
                buffer.write(String(repeating: " ", count: width - used), x: frame.x + used, y: frame.y, style: Style(underline: true), clip: frame)
            }
        }
    }

    /// What ends the field while busy: the refusal of an Enter where it fits with room for some
    /// text, else "…"; nothing when not busy.
    private var busyMarker: String {
        guard isBusy, frame.width > 2 else { return "" }
        let refusal = " … still running: Enter not taken"
        return refusedEnter && DisplayWidth.of(refusal) <= frame.width / 2 ? refusal : " …"
    }

    /// Sets `scroll` so that the cursor's column is inside the field, and so that as much of
    /// the text as fits is shown (after the text got shorter, the start comes back into view).
    private func scrollToCursor(in shown: [Character], width: Int) {
        let cursor = min(self.cursor, shown.count)
        let widths = shown.map { DisplayWidth.of($0) }
        scroll = min(max(0, scroll), cursor)
        // Forward: the columns from the first shown character to the cursor must leave the
        // cursor's own column inside the field.
        var beforeCursor = widths[scroll..<cursor].reduce(0, +)
        while beforeCursor >= width, scroll < cursor {
            beforeCursor -= widths[scroll]
            scroll += 1
        }
        // Back: show earlier characters while everything from them on (and the cursor's
        // column at the end) still fits.
        var rest = widths[scroll...].reduce(0, +) + (cursor == shown.count ? 1 : 0)
        while scroll > 0, beforeCursor + widths[scroll - 1] < width, rest + widths[scroll - 1] <= width {
            scroll -= 1
            beforeCursor += widths[scroll]
            rest += widths[scroll]
        }
    }

    public override var cursorPosition: Point? {
        let shown = Array(displayed)
        let cursor = min(self.cursor, shown.count)
        let start = min(scroll, cursor)
        let column = DisplayWidth.of(String(shown[start..<cursor]))
        return Point(x: frame.x + min(column, max(0, frame.width - DisplayWidth.of(busyMarker) - 1)), y: frame.y)
    }
}

/// A field for passwords: the text is never drawn.
@MainActor
public func SecureField(placeholder: String = "") -> TextField {
    TextField(placeholder: placeholder, isSecure: true)
}
