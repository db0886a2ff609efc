import Signals

/// A row of segments; Left/Right change the selection while it is focused.
@MainActor
public final class SegmentedControl: View {
    public var segments: [String] { didSet { setNeedsDisplay() } }
    public var selectedIndex: Int {
        didSet {
            guard selectedIndex != oldValue else { return }
            setNeedsDisplay()
        }
    }
    private let changes = PublishSubject<Int, Never>()

    public init(_ segments: [String], selectedIndex: Int = 0) {
        self.segments = segments
        self.selectedIndex = selectedIndex
        super.init()
        heightPolicy = .fixed(1)
    }

    /// Each selection the user makes.
    public nonisolated var selectionChanges: Signal<Int, Never> { changes.signal }

    public override var canFocus: Bool { !segments.isEmpty }

    public override func handle(_ key: Key) -> Bool {
        let next: Int
        switch key {
        case .left: next = selectedIndex - 1
        case .right: next = selectedIndex + 1
        default: return false
        }
        guard segments.indices.contains(next) else { return true }
        selectedIndex = next
        changes.send(next)
        return true
    }

    /// The segments drawn: all if they fit, else a run around the selected one, with "‹" and
    /// "›" standing for those off to either side.
    func shownRange() -> ClosedRange<Int> {
        guard !segments.isEmpty else { return 0...0 }
        let widths = segments.map { DisplayWidth.of($0) + 2 }
        func width(_ range: ClosedRange<Int>) -> Int {
            range.reduce(0) { $0 + widths[$1] } + range.count - 1
                + (range.lowerBound > 0 ? 1 : 0) + (range.upperBound < segments.count - 1 ? 1 : 0)
        }
        let selected = max(0, min(segments.count - 1, selectedIndex))
        var range = selected...selected
        var grew = true
        while grew {
            grew = false
            if range.upperBound < segments.count - 1, width(range.lowerBound...(range.upperBound + 1)) <= frame.width {
                range = range.lowerBound...(range.upperBound + 1)
                grew = true
            }
            if range.lowerBound > 0, width((range.lowerBound - 1)...range.upperBound) <= frame.width {
                range = (range.lowerBound - 1)...range.upperBound
                grew = true
            }
        }
        return range
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard !segments.isEmpty else { return }
        let range = shownRange()
        let more = Style(dim: true)
        var x = frame.x
        var right = frame.maxX
        if range.upperBound < segments.count - 1 {
            right -= 1
            buffer.write("›", x: right, y: frame.y, style: more, clip: frame)
        }
        let clip = Rect(x: frame.x, y: frame.y, width: right - frame.x, height: frame.height)
        if range.lowerBound > 0 { x = buffer.write("‹", x: x, y: frame.y, style: more, clip: clip) }
        for index in range {
            let selected = index == selectedIndex
            let style = selected ? Style(bold: true, reverse: true, foreground: isFocused ? nil : .cyan) : Style(dim: !isFocused)
            let text = DisplayWidth.truncate(" \(segments[index]) ", to: clip.maxX - x)
            x = buffer.write(text, x: x, y: frame.y, style: style, clip: clip)
            if index < range.upperBound { x = buffer.write("│", x: x, y: frame.y, style: Style(dim: true), clip: clip) }
        }
    }
}

/// Tabs across the top and the selected tab's content below; Left/Right switch tabs while
/// the tab row is focused.
@MainActor
public final class TabBar: View {
    public let titles: [String]
    private let contents: [View]
    private let row: SegmentedControl

    public init(_ tabs: [(title: String, content: View)]) {
        titles = tabs.map(\.title)
        contents = tabs.map(\.content)
        row = SegmentedControl(tabs.map(\.title))
        super.init()
        heightPolicy = .fill
        add(row)
        for content in contents { add(content) }
        showSelected()
    }

    /// The tab row, for focus and bindings.
    public var tabRow: SegmentedControl { row }

    public var selectedIndex: Int {
        get { row.selectedIndex }
        set {
            row.selectedIndex = newValue
            showSelected()
        }
    }

    /// Each tab the user switches to.
    public nonisolated var selectionChanges: Signal<Int, Never> { row.selectionChanges }

    private func showSelected() {
        for (index, content) in contents.enumerated() { content.isHidden = index != row.selectedIndex }
        setNeedsDisplay()
    }

    public override func layout(in rect: Rect) {
        // The row may have switched tabs since (Left/Right): show the tab before the screen
        // looks for what can take the focus.
        showSelectedIfNeeded()
        frame = rect
        row.layout(in: Rect(x: rect.x, y: rect.y, width: rect.width, height: 1))
        for content in contents { content.layout(in: Rect(x: rect.x, y: rect.y + 2, width: rect.width, height: rect.height - 2)) }
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        showSelectedIfNeeded()
        row.draw(into: &buffer)
        buffer.write(String(repeating: "─", count: max(0, frame.width)), x: frame.x, y: frame.y + 1, style: Style(dim: true), clip: frame)
        for content in contents where !content.isHidden { content.draw(into: &buffer) }
    }

    private func showSelectedIfNeeded() {
        if contents.indices.contains(row.selectedIndex), contents[row.selectedIndex].isHidden { showSelected() }
    }
}

/// A modal message with one button: it covers the screen's centre and takes every key until
/// Enter, Space or Esc dismisses it.
@MainActor
public final class Alert: View {
    public let title: String
    public let message: String
    public let buttonTitle: String
    private let dismissed: @MainActor (Alert) -> Void

    public init(title: String, message: String, button: String = "OK", onDismiss: @escaping @MainActor (Alert) -> Void) {
        self.title = title
        self.message = message
        buttonTitle = button
        dismissed = onDismiss
        super.init()
    }

    public override var canFocus: Bool { true }

    public override func handle(_ key: Key) -> Bool {
        switch key {
        case .enter, .escape, .character(" "):
            dismissed(self)
        default:
            break
        }
        return true
    }

    /// Draws the box centred in `screen`.
    func drawModal(into buffer: inout ScreenBuffer, screen: Rect) {
        let width = min(screen.width - 2, max(DisplayWidth.of(title), DisplayWidth.of(message), 20) + 4)
        let lines = Label.wrap(message, width: max(1, width - 4))
        let height = lines.count + 5
        let box = Rect(x: screen.x + (screen.width - width) / 2, y: screen.y + max(0, (screen.height - height) / 2), width: width, height: height)
        buffer.fill(box)
        let border = Border(title: title, style: Style(bold: true), Label(""))
        border.layout(in: box)
        border.draw(into: &buffer)
        for (index, line) in lines.enumerated() {
            buffer.write(line, x: box.x + 2, y: box.y + 2 + index, clip: box.inset(by: 1))
        }
        let button = "[ " + buttonTitle + " ]"
        buffer.write(button, x: box.x + (width - DisplayWidth.of(button)) / 2, y: box.maxY - 2, style: Style(bold: true, reverse: true), clip: box)
    }
}
