import Signals

/// Options any number of which may be chosen, one row each (`[x] One`, `[ ] Two`), as huh's
/// multi-select: ↑ ↓ move through them (past the first or the last the focus moves on), Home
/// and End go to the ends, Space or Enter flips the highlighted one. ``selectionChanges``
/// carries the chosen indices after each flip by the person.
@MainActor
public final class CheckList: View {
    public let options: [String]
    /// The indices of the chosen options.
    public var selection: Set<Int> { didSet { if selection != oldValue { setNeedsDisplay() } } }
    /// The option Space flips, drawn reversed while the list has the focus.
    public private(set) var highlighted = 0 { didSet { if highlighted != oldValue { setNeedsDisplay() } } }
    private let changes = PublishSubject<Set<Int>, Never>()

    public init(_ options: [String], selection: Set<Int> = []) {
        self.options = options
        self.selection = selection
        super.init()
        widthPolicy = .fit
    }

    /// The chosen indices after each flip by the person (not after a change of ``selection``
    /// by code).
    public nonisolated var selectionChanges: Signal<Set<Int>, Never> { changes.signal }

    public override var canFocus: Bool { !options.isEmpty }

    public override func intrinsicSize(in available: Size) -> Size {
        let widest = (options.map { DisplayWidth.of($0) }.max() ?? 0) + 4
        return Size(width: min(available.width, widest), height: min(available.height, options.count))
    }

    public override func handle(_ key: Key) -> Bool {
        if let row = RowMove.target(of: key, from: highlighted, count: options.count) {
            highlighted = row
            return true
        }
        switch key {
        case .enter, .character(" "):
            guard options.indices.contains(highlighted) else { return false }
            var flipped = selection
            if flipped.remove(highlighted) == nil { flipped.insert(highlighted) }
            selection = flipped
            changes.send(flipped)
        default:
            return false
        }
        return true
    }

    /// On the highlighted option's box, so that a scroll view around the list keeps it in view.
    public override var cursorPosition: Point? {
        guard highlighted < frame.height else { return nil }
        return Point(x: frame.x + 1, y: frame.y + highlighted)
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        for (index, option) in options.enumerated() where index < frame.height {
            let text = DisplayWidth.truncate((selection.contains(index) ? "[x] " : "[ ] ") + option, to: frame.width)
            let style = isFocused && index == highlighted ? Style.reverse : .plain
            buffer.write(text, x: frame.x, y: frame.y + index, style: style, clip: frame)
        }
    }
}
