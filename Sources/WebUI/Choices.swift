import MVVM
import Signals

/// Segments, one selected (a row of toggle buttons); the user's choice arrives as
/// ``selectionChanges``.
public final class SegmentedControl: Element {
    private var changes = EventSubject<Int>()
    private var buttons: [Element] = []

    public init(_ titles: [String], class className: String = "segments") {
        super.init("div", ["class": className, "role": "tablist"])
        buttons = titles.enumerated().map { index, title in
            Element("button", ["type": "button", "role": "tab", "aria-selected": index == 0 ? "true" : "false", "data-i": String(index)], text: title)
        }
        setChildren(buttons)
    }

    public var selectedIndex = 0 {
        didSet {
            for (index, button) in buttons.enumerated() {
                button.setAttribute("aria-selected", index == selectedIndex ? "true" : "false")
            }
        }
    }

    public var selectionChanges: Signal<Int, Never> { changes.signal }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard event == .click, let index = buttons.firstIndex(where: { $0 === target }) else { return false }
        if index != selectedIndex {
            selectedIndex = index
            changes.send(index)
        }
        return true
    }
}

/// Tabs: a segmented control over the contents, one shown at a time.
public final class TabBar: Element {
    public let segments: SegmentedControl
    private let contents: [Element]

    public init(_ tabs: [(title: String, content: Element)]) {
        var titles: [String] = []
        var wrapped: [Element] = []
        for tab in tabs {
            titles.append(tab.title)
            wrapped.append(Stack(.vertical, class: "tab", [tab.content]))
        }
        segments = SegmentedControl(titles, class: "tabs")
        contents = wrapped
        super.init("div", ["class": "tabbar"], children: [segments] + wrapped)
        show(0)
        followSegments()
    }

    // Separate from init: the same code inline crashed the release build's SIL verifier
    // (Swift 6.3.1, OSSACompleteLifetime in TabBar.init).
    private func followSegments() {
        segments.selectionChanges.perform(during: self) { [weak self] index in self?.show(index) }
    }

    public var selectedIndex: Int {
        get { segments.selectedIndex }
        set {
            segments.selectedIndex = newValue
            show(newValue)
        }
    }

    public var selectionChanges: Signal<Int, Never> { segments.selectionChanges }

    private func show(_ index: Int) {
        for (offset, tab) in contents.enumerated() { tab.isHidden = offset != index }
    }
}
