import Signals

/// A picker of one option among many: `‹ Option ▾ ›` while closed; Enter or Space opens the list
/// of options under it, ↑ ↓ move through them (the list scrolls past ``shownRows``), Enter or
/// Space chooses and closes, Esc closes and keeps the choice. ``selectionChanges`` carries each
/// choice the person makes.
@MainActor
public final class Picker: View {
    public let options: [String]
    public var selectedIndex: Int { didSet { if selectedIndex != oldValue { setNeedsDisplay() } } }
    /// Whether the list is open (it closes when the picker loses the focus).
    public private(set) var isOpen = false { didSet { if isOpen != oldValue { setNeedsDisplay() } } }
    private var highlighted = 0
    private let changes = PublishSubject<Int, Never>()
    /// The most options the open list shows at once.
    public static let shownRows = 5

    public init(_ options: [String], selectedIndex: Int = 0) {
        self.options = options
        self.selectedIndex = selectedIndex
        super.init()
        widthPolicy = .fit
    }

    /// Each option the person chooses.
    public nonisolated var selectionChanges: Signal<Int, Never> { changes.signal }

    public override var canFocus: Bool { !options.isEmpty }

    /// Tab away closes the list: it is not open again when the focus comes back.
    public override var isFocused: Bool {
        didSet { if !isFocused { isOpen = false } }
    }

    var closedText: String {
        let title = options.indices.contains(selectedIndex) ? options[selectedIndex] : "—"
        return "[ \(title) ▾ ]"
    }

    public override func intrinsicSize(in available: Size) -> Size {
        let widest = max(DisplayWidth.of(closedText), (options.map { DisplayWidth.of($0) }.max() ?? 0) + 4)
        let rows = isOpen ? min(options.count, Self.shownRows) : 0
        return Size(width: min(available.width, widest), height: min(available.height, 1 + rows))
    }

    public override func handle(_ key: Key) -> Bool {
        guard isOpen else {
            guard key == .enter || key == .character(" ") else { return false }
            highlighted = options.indices.contains(selectedIndex) ? selectedIndex : 0
            isOpen = true
            return true
        }
        switch key {
        case .up: highlighted = max(0, highlighted - 1)
        case .down: highlighted = min(options.count - 1, highlighted + 1)
        case .home: highlighted = 0
        case .end: highlighted = options.count - 1
        case .enter, .character(" "):
            isOpen = false
            if highlighted != selectedIndex {
                selectedIndex = highlighted
                changes.send(highlighted)
            }
        case .escape: isOpen = false
        default: break
        }
        setNeedsDisplay()
        return true
    }

    /// The options shown in the open list: a window of ``shownRows`` around the highlighted one.
    var shownOptions: Range<Int> {
        let rows = min(options.count, Self.shownRows, max(0, frame.height - 1))
        let first = min(max(0, highlighted - rows / 2), options.count - rows)
        return first..<(first + rows)
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let style = isFocused ? Style(bold: true, reverse: true) : Style(bold: true)
        buffer.write(DisplayWidth.truncate(closedText, to: frame.width), x: frame.x, y: frame.y, style: style, clip: frame)
        guard isOpen else { return }
        for (row, index) in shownOptions.enumerated() {
            let marker = index == selectedIndex ? "• " : "  "
            let text = DisplayWidth.truncate(marker + options[index], to: frame.width)
            let line = text + String(repeating: " ", count: max(0, frame.width - DisplayWidth.of(text)))
            buffer.write(line, x: frame.x, y: frame.y + 1 + row, style: index == highlighted ? .reverse : .plain, clip: frame)
        }
    }
}
