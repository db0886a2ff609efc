import Signals

/// An editable line of text: cursor, editing keys, paste, a placeholder while empty. A secure
/// field shows a bullet per character and never the text.
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
    /// The cursor, as a character offset into `text`.
    public private(set) var cursor = 0
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
        var edited = text
        switch key {
        case .character(let character):
            edited.insert(character, at: edited.index(edited.startIndex, offsetBy: cursor))
            cursor += 1
        case .paste(let pasted):
            let clean = pasted.filter { $0 != "\n" && $0 != "\r" }
            edited.insert(contentsOf: clean, at: edited.index(edited.startIndex, offsetBy: cursor))
            cursor += clean.count
        case .backspace:
            guard cursor > 0 else { return true }
            edited.remove(at: edited.index(edited.startIndex, offsetBy: cursor - 1))
            cursor -= 1
        case .delete:
            guard cursor < edited.count else { return true }
            edited.remove(at: edited.index(edited.startIndex, offsetBy: cursor))
        case .left: cursor = max(0, cursor - 1); setNeedsDisplay(); return true
        case .right: cursor = min(text.count, cursor + 1); setNeedsDisplay(); return true
        case .home, .control("a"): cursor = 0; setNeedsDisplay(); return true
        case .end, .control("e"): cursor = text.count; setNeedsDisplay(); return true
        case .control("u"):
            edited = ""
            cursor = 0
        case .enter:
            submits.send(text)
            return true
        default:
            return false
        }
        if edited != text {
            let newCursor = cursor
            text = edited
            cursor = newCursor
            changes.send(edited)
        }
        setNeedsDisplay()
        return true
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let width = frame.width
        guard width > 0 else { return }
        if text.isEmpty && !placeholder.isEmpty {
            buffer.write(DisplayWidth.truncate(placeholder, to: width), x: frame.x, y: frame.y, style: Style(dim: true), clip: frame)
        } else {
            // Keep the cursor in view.
            let shown = Array(displayed)
            let cursorColumn = DisplayWidth.of(String(shown.prefix(cursor)))
            let scrollColumn = DisplayWidth.of(String(shown.prefix(scroll)))
            if cursorColumn < scrollColumn { scroll = cursor }
            while DisplayWidth.of(String(shown[min(scroll, shown.count)..<cursor])) >= width { scroll += 1 }
            buffer.write(String(shown.dropFirst(scroll)), x: frame.x, y: frame.y, style: isFocused ? Style(underline: true) : .plain, clip: frame)
        }
        if isFocused {
            // Underline the empty part too, so the field is visible.
            let used = DisplayWidth.of(String(Array(displayed).dropFirst(scroll)))
            if text.isEmpty == false || placeholder.isEmpty, used < width {
                buffer.write(String(repeating: " ", count: width - used), x: frame.x + used, y: frame.y, style: Style(underline: true), clip: frame)
            }
        }
    }

    public override var cursorPosition: Point? {
        let shown = Array(displayed)
        let column = DisplayWidth.of(String(shown[min(scroll, shown.count)..<min(cursor, shown.count)]))
        return Point(x: frame.x + min(column, max(0, frame.width - 1)), y: frame.y)
    }
}

/// A field for passwords: the text is never drawn.
@MainActor
public func SecureField(placeholder: String = "") -> TextField {
    TextField(placeholder: placeholder, isSecure: true)
}
