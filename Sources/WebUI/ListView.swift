import MVVM
import Signals

/// A list of rows, each with a key: changing rows patches only the rows that changed, rows added
/// at the end are appended, and rows taken off the end are removed; any other change sends the
/// list's rows once. A click (or Enter) on a row arrives as ``chosen``, the rows on screen as
/// ``visibleRows``, and the end of the list coming into view as ``reachedEnd`` (while
/// ``loadsMore`` is set).
@MainActor
public final class ListView: Element {
    /// A row: its key (what makes it the same row after a change), text, and an optional image.
    public struct Row: Sendable, Equatable {
        public var key: String
        public var title: String
        public var detail: String?
        public var image: String?
        public var imageDescription: String

        public init(key: String, title: String, detail: String? = nil, image: String? = nil, imageDescription: String = "") {
            self.key = key
            self.title = title
            self.detail = detail
            self.image = image
            self.imageDescription = imageDescription
        }
    }

    private let items = Element("ul", ["class": "rows"])
    private let empty: Label
    private let end = Element("div", ["class": "list-end", "hidden": ""])
    private var current: [Row] = []
    private let selectedSubject = PublishSubject<Int, Never>()
    private let visibleSubject = PublishSubject<ClosedRange<Int>, Never>()
    private let endSubject = PublishSubject<Void, Never>()

    public init(emptyText: String = "", class className: String? = nil) {
        empty = Label(emptyText, tag: "p", class: "empty")
        super.init("div", ["class": "list" + (className.map { " " + $0 } ?? ""), "data-list": ""], children: [])
        setChildren([empty, items, end])
    }

    /// What the list shows when it has no rows.
    public var emptyText: String {
        get { empty.text }
        set { empty.text = newValue }
    }

    /// Whether reaching the end asks for more (the end marker is watched by the page).
    public var loadsMore: Bool {
        get { !end.isHidden }
        set { end.isHidden = !newValue }
    }

    /// The rows. Setting them patches only what changed.
    public var rows: [Row] {
        get { current }
        set { update(newValue) }
    }

    /// The index of each row the user chooses (a click, or Enter on a focused row): ScreenKit's
    /// `onSelect`.
    public var chosen: Signal<Int, Never> { selectedSubject.signal }
    /// The rows on screen, as the page scrolls.
    public var visibleRows: Signal<ClosedRange<Int>, Never> { visibleSubject.signal }
    /// The end of the list came into view (only while ``loadsMore``).
    public var reachedEnd: Signal<Void, Never> { endSubject.signal }

    private func update(_ new: [Row]) {
        let old = current
        current = new
        empty.isHidden = !new.isEmpty
        let common = min(old.count, new.count)
        let sameKeys = zip(old.prefix(common), new.prefix(common)).allSatisfy { $0.key == $1.key }
        guard sameKeys else {
            items.setChildren(new.enumerated().map { RowElement(row: $1, index: $0) })
            return
        }
        for index in 0..<common where old[index] != new[index] {
            items.replaceChild(at: index, with: RowElement(row: new[index], index: index))
        }
        if new.count < old.count {
            items.removeChildren(from: new.count)
        } else {
            for index in old.count..<new.count { items.append(RowElement(row: new[index], index: index)) }
        }
    }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        switch event {
        case .click:
            var element: Element? = target
            while let current = element, current !== self {
                if let row = current as? RowElement, row.parent === items {
                    selectedSubject.send(row.index)
                    return true
                }
                element = current.parent
            }
            return false
        case .visible(let range):
            guard !current.isEmpty, range.lowerBound < current.count else { return true }
            visibleSubject.send(range.lowerBound...min(range.upperBound, current.count - 1))
            return true
        case .reachedEnd:
            if loadsMore { endSubject.send(()) }
            return true
        default:
            return false
        }
    }
}

/// One row of a ``ListView``.
@MainActor
final class RowElement: Element {
    let index: Int

    init(row: ListView.Row, index: Int) {
        self.index = index
        var text: [Element] = [Label(row.title, class: "title")]
        if let detail = row.detail { text.append(Label(detail, class: "detail")) }
        var children: [Element] = []
        if let image = row.image { children.append(Image(source: image, description: row.imageDescription, class: "thumb")) }
        children.append(Stack(.vertical, class: "row-text", text))
        super.init("li", ["class": "row", "tabindex": "0", "data-click": "", "data-i": String(index), "data-key": row.key], children: children)
    }
}
