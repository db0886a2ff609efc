import Signals

/// A scrolling list of rows with a highlighted row (``selection``). Up/Down, PageUp/PageDown and
/// Home/End move the highlight (scrolling as needed; ``highlightChanges``); Enter chooses the
/// highlighted row (``chosen``), and Space flips the highlighted row's checkbox, if it has one
/// (``toggled``). It reports which rows are visible and asks for more when the
/// highlight reaches the last row (``reachedEnd``).
@MainActor
public final class ListView: View {
    /// One row: lines of text (a row may take several lines) and an optional style.
    public struct Row: Sendable, Equatable {
        public var lines: [String]
        public var style: Style
        /// Drawn at the right end of the first line (a price); the first line is cut to leave
        /// room for it, so a list uses the width it has.
        public var trailing: String?
        /// A checkbox drawn before the first line (`[x]` or `[ ]`); `nil`: none.
        public var checkbox: Bool?

        public init(_ lines: [String], style: Style = .plain, trailing: String? = nil, checkbox: Bool? = nil) {
            self.lines = lines.isEmpty ? [""] : lines
            self.style = style
            self.trailing = trailing
            self.checkbox = checkbox
        }

        public init(_ text: String, style: Style = .plain, trailing: String? = nil, checkbox: Bool? = nil) {
            self.init([text], style: style, trailing: trailing, checkbox: checkbox)
        }
    }

    public var rows: [Row] = [] {
        didSet {
            if selection >= rows.count { selection = max(0, rows.count - 1) }
            clampScroll()
            setNeedsDisplay()
            reportVisibleRows()
        }
    }
    public private(set) var selection = 0
    public private(set) var scrollOffset = 0
    /// Shown when there are no rows.
    public var emptyText: String { didSet { setNeedsDisplay() } }
    private let selections = PublishSubject<Int, Never>()
    private let visible = BehaviorSubject<Range<Int>, Never>(0..<0)
    private let nearEnd = PublishSubject<Void, Never>()
    private let moves = PublishSubject<Int, Never>()
    private let toggles = PublishSubject<Int, Never>()

    public init(emptyText: String = "") {
        self.emptyText = emptyText
        super.init()
        heightPolicy = .fill
    }

    /// The index of each row the user chooses with Enter (to open it): ScreenKit's `onSelect`.
    /// Moving the highlight is ``highlightChanges``.
    public nonisolated var chosen: Signal<Int, Never> { selections.signal }
    /// The rows on screen, each time they change.
    public nonisolated var visibleRows: Signal<Range<Int>, Never> { visible.signal.removeDuplicates() }
    /// The highlighted row (``selection``), each time the user moves it with the arrows, Page
    /// Up/Down, Home or End: ScreenKit's `onHighlight`. Choosing a row is ``chosen``.
    public nonisolated var highlightChanges: Signal<Int, Never> { moves.signal }
    /// The index of each row whose checkbox the user flips with Space (the row keeps showing
    /// its old state until its owner sets the rows again).
    public nonisolated var toggled: Signal<Int, Never> { toggles.signal }
    /// Emits when the selection reaches the last row (load more).
    public nonisolated var reachedEnd: Signal<Void, Never> { nearEnd.signal }

    /// An empty list cannot take the focus, but keeps it while its rows reload (so the keys
    /// that follow still reach it, or what is around it).
    public override var canFocus: Bool { !rows.isEmpty || isFocused }

    var rowHeight: Int { rows.first?.lines.count ?? 1 }
    var pageSize: Int { max(1, frame.height / max(1, rowHeight)) }

    /// Moves the selection to `index` (clamped), scrolling it into view.
    public func select(_ index: Int) {
        guard !rows.isEmpty else { return }
        let clamped = max(0, min(rows.count - 1, index))
        let reached = clamped == rows.count - 1 && selection != clamped
        let moved = clamped != selection
        selection = clamped
        if moved { moves.send(clamped) }
        clampScroll()
        setNeedsDisplay()
        reportVisibleRows()
        if reached { nearEnd.send(()) }
    }

    public override func handle(_ key: Key) -> Bool {
        switch key {
        case .up: guard selection > 0 else { return false }; select(selection - 1)
        case .down: guard selection < rows.count - 1 else { nearEnd.send(()); return true }; select(selection + 1)
        case .pageUp: select(selection - pageSize)
        case .pageDown: select(selection + pageSize)
        case .home: select(0)
        case .end: select(rows.count - 1)
        case .enter: if !rows.isEmpty { selections.send(selection) }
        case .character(" "):
            guard rows.indices.contains(selection), rows[selection].checkbox != nil else { return false }
            toggles.send(selection)
        default: return false
        }
        return true
    }

    public override func layout(in rect: Rect) {
        super.layout(in: rect)
        clampScroll()
        reportVisibleRows()
    }

    private func clampScroll() {
        let page = pageSize
        if selection < scrollOffset { scrollOffset = selection }
        if selection >= scrollOffset + page { scrollOffset = selection - page + 1 }
        scrollOffset = max(0, min(scrollOffset, max(0, rows.count - page)))
    }

    private func reportVisibleRows() {
        let range = scrollOffset..<min(rows.count, scrollOffset + pageSize)
        if frame.height > 0 && visible.value != range { visible.send(range) }
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard frame.height > 0 else { return }
        if rows.isEmpty {
            buffer.write(DisplayWidth.truncate(emptyText, to: frame.width), x: frame.x, y: frame.y, style: Style(dim: true), clip: frame)
            return
        }
        var y = frame.y
        for index in scrollOffset..<rows.count {
            let row = rows[index]
            guard y + row.lines.count <= frame.maxY || y == frame.y else { break }
            let selected = index == selection
            for (lineIndex, line) in row.lines.enumerated() where y + lineIndex < frame.maxY {
                var style = lineIndex == 0 ? row.style : Style(dim: true)
                if selected && isFocused { style.reverse = true }
                var marker = selected ? (lineIndex == 0 ? "› " : "  ") : "  "
                if let checkbox = row.checkbox { marker += lineIndex == 0 ? (checkbox ? "[x] " : "[ ] ") : "    " }
                var text = marker + DisplayWidth.truncate(line, to: frame.width - DisplayWidth.of(marker))
                if lineIndex == 0, let trailing = row.trailing, !trailing.isEmpty {
                    // The value ends one column before the edge (the scroll marks' column).
                    let room = frame.width - 1 - DisplayWidth.of(trailing)
                    let head = marker + DisplayWidth.truncate(line, to: max(0, room - 4))
                    text = head + String(repeating: " ", count: max(1, room - DisplayWidth.of(head))) + trailing
                }
                buffer.write(text, x: frame.x, y: y + lineIndex, style: style, clip: frame)
                if selected && isFocused {
                    let used = DisplayWidth.of(text)
                    if used < frame.width {
                        buffer.write(String(repeating: " ", count: frame.width - used), x: frame.x + used, y: y + lineIndex, style: style, clip: frame)
                    }
                }
            }
            y += row.lines.count
            if y >= frame.maxY { break }
        }
        if scrollOffset > 0 { buffer.write("↑", x: frame.maxX - 1, y: frame.y, style: Style(dim: true), clip: frame) }
        if scrollOffset + pageSize < rows.count { buffer.write("↓", x: frame.maxX - 1, y: frame.maxY - 1, style: Style(dim: true), clip: frame) }
    }
}
