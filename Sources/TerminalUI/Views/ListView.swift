import ScreenKit
import Signals

/// A scrolling list of rows with a highlighted row (``selection``). Up/Down, PageUp/PageDown and
/// Home/End move the highlight (scrolling as needed; ``highlightChanges``); Enter chooses the
/// highlighted row (``chosen``), and Space flips the highlighted row's checkbox, if it has one
/// (``toggled``). It reports which rows are visible and asks for more when the last row comes
/// on screen (``reachedEnd``; Down on the last row asks again). Under the rows, a ``footer``
/// says a page is loading, or why it failed: the highlight can go onto a failure, and Enter
/// there asks again (``retries``).
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

    /// What shows under the rows: a page on its way, or one that failed (the highlight can go
    /// onto a failure, and Enter asks again).
    public typealias Footer = ListFooter

    /// The row under the rows (`nil`: none).
    public var footer: Footer? {
        didSet {
            guard footer != oldValue else { return }
            if selection >= selectableCount { selection = max(0, selectableCount - 1) }
            clampScroll()
            // At the end of the list, the row under it comes into view with it (the highlight
            // staying on screen).
            let page = pageSize
            if footer != nil, !rows.isEmpty, scrollOffset + page >= rows.count, selection >= scrollCount - page {
                scrollOffset = max(0, scrollCount - page)
            }
            setNeedsDisplay()
            reportVisibleRows()
        }
    }

    public var rows: [Row] = [] {
        didSet {
            if selection >= selectableCount { selection = max(0, selectableCount - 1) }
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
    private let retrySubject = PublishSubject<Void, Never>()
    /// The row count when the last row was last reported on screen (it is reported again only
    /// once more rows came, or it left the screen and came back).
    private var endReportedAt: Int?

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
    /// Emits when the last row comes on screen, and when Down is pressed on it (load more).
    public nonisolated var reachedEnd: Signal<Void, Never> { nearEnd.signal }
    /// Emits when Enter is pressed on a failed ``footer`` (try again).
    public nonisolated var retries: Signal<Void, Never> { retrySubject.signal }

    /// An empty list cannot take the focus (unless it failed: Enter asks again), but keeps it
    /// while its rows reload (so the keys that follow still reach it, or what is around it).
    public override var canFocus: Bool { selectableCount > 0 || isFocused }

    private var isFailed: Bool {
        if case .failed = footer { return true }
        return false
    }

    /// The rows and, when it failed, the footer: what the highlight can be on.
    private var selectableCount: Int { rows.count + (isFailed ? 1 : 0) }
    /// Whether the highlight is on the failed footer.
    private var onFooter: Bool { isFailed && selection == rows.count }

    var rowHeight: Int { rows.first?.lines.count ?? 1 }
    var pageSize: Int { max(1, frame.height / max(1, rowHeight)) }

    /// Moves the selection to `index` (clamped), scrolling it into view.
    public func select(_ index: Int) {
        guard selectableCount > 0 else { return }
        let clamped = max(0, min(selectableCount - 1, index))
        let moved = clamped != selection
        selection = clamped
        if moved && clamped < rows.count { moves.send(clamped) }
        clampScroll()
        setNeedsDisplay()
        reportVisibleRows()
    }

    public override func handle(_ key: Key) -> Bool {
        switch key {
        case .up: guard selection > 0 else { return false }; select(selection - 1)
        case .down: guard selection < selectableCount - 1 else { nearEnd.send(()); return true }; select(selection + 1)
        case .pageUp: select(selection - pageSize)
        case .pageDown: select(selection + pageSize)
        case .home: select(0)
        case .end: select(selectableCount - 1)
        case .enter:
            if onFooter { retrySubject.send(()) } else if rows.indices.contains(selection) { selections.send(selection) }
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

    /// The rows and the footer, as lines of the list: what scrolls.
    private var scrollCount: Int { rows.count + (footer == nil ? 0 : 1) }

    private func clampScroll() {
        let page = pageSize
        if selection < scrollOffset { scrollOffset = selection }
        if selection >= scrollOffset + page { scrollOffset = selection - page + 1 }
        // On the last row, the line under it (loading, a failure, the end marker) shows too.
        if footer != nil, !rows.isEmpty, selection == rows.count - 1 { scrollOffset = max(scrollOffset, scrollCount - page) }
        scrollOffset = max(0, min(scrollOffset, max(0, scrollCount - page)))
    }

    private func reportVisibleRows() {
        guard frame.height > 0 else { return }
        let range = scrollOffset..<min(rows.count, scrollOffset + pageSize)
        if visible.value != range { visible.send(range) }
        // The last row on screen asks for more, once for each count of rows (a short page
        // that leaves it on screen asks again); off screen, it may ask again when it is back.
        let endShown = !rows.isEmpty && range.upperBound == rows.count
        if !endShown {
            endReportedAt = nil
        } else if endReportedAt != rows.count {
            endReportedAt = rows.count
            nearEnd.send(())
        }
    }

    /// The footer's line, its style (reversed when highlighted), at `y` if it fits.
    private func drawFooter(at y: Int, into buffer: inout ScreenBuffer) {
        guard let footer, y < frame.maxY else { return }
        switch footer {
        case .loading:
            buffer.write(DisplayWidth.truncate("  Loading…", to: frame.width), x: frame.x, y: y, style: Style(dim: true), clip: frame)
        case .end(let text):
            buffer.write(DisplayWidth.truncate("  " + text, to: frame.width), x: frame.x, y: y, style: Style(dim: true), clip: frame)
        case .failed(let why):
            let selected = onFooter && isFocused
            var style = Style(bold: true, foreground: .red)
            if selected { style.reverse = true }
            let text = DisplayWidth.truncate((onFooter ? "› " : "  ") + "Could not load: \(why) (Enter: try again)", to: frame.width)
            buffer.write(text, x: frame.x, y: y, style: style, clip: frame)
            if selected, DisplayWidth.of(text) < frame.width {
                buffer.write(String(repeating: " ", count: frame.width - DisplayWidth.of(text)), x: frame.x + DisplayWidth.of(text), y: y, style: style, clip: frame)
            }
        }
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard frame.height > 0 else { return }
        if rows.isEmpty {
            if footer != nil {
                drawFooter(at: frame.y, into: &buffer)
            } else {
                buffer.write(DisplayWidth.truncate(emptyText, to: frame.width), x: frame.x, y: frame.y, style: Style(dim: true), clip: frame)
            }
            return
        }
        var y = frame.y
        if scrollOffset >= rows.count { drawFooter(at: y, into: &buffer) }
        for index in scrollOffset..<max(scrollOffset, rows.count) {
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
            if index == rows.count - 1 { drawFooter(at: y, into: &buffer) }
        }
        if scrollOffset > 0 { buffer.write("↑", x: frame.maxX - 1, y: frame.y, style: Style(dim: true), clip: frame) }
        if scrollOffset + pageSize < scrollCount { buffer.write("↓", x: frame.maxX - 1, y: frame.maxY - 1, style: Style(dim: true), clip: frame) }
    }
}
