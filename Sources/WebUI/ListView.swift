import MVVM
import ScreenKit
import Signals

/// A list of rows, each with a key (as LiveView's streams): a change sends only the rows that
/// changed, were added or went, each as one patch, wherever they are in the list; only a
/// reordering, or a change to most of the list, sends the list's rows once. A click (or Enter)
/// on a row arrives as ``chosen``, a row's checkbox as ``toggledRows``, a row's button as
/// ``rowButtonPresses``, the rows on screen as ``visibleRows``, and the end of the list coming
/// into view as ``reachedEnd`` (while ``loadsMore`` is set).
public final class ListView: Element {
    /// A row: its key (what makes it the same row after a change; keys should be unique), text,
    /// an optional image, an optional checkbox, and the titles of its buttons.
    public struct Row: Sendable, Equatable {
        public var key: String
        public var title: String
        public var detail: String?
        public var image: String?
        public var imageDescription: String
        /// A checkbox at the row's start, checked or not; `nil`: none.
        public var checkbox: Bool?
        /// Buttons at the row's end (a to-do's Delete), by title.
        public var buttons: [String]
        /// The path, relative to the page's address, of the screen the row opens (`"2"`,
        /// `"item/7"`, percent-encoded): the row's title is a link there (open in a new tab, copy
        /// the address), while a plain click selects the row as before. Only in a list whose
        /// rows act; `nil`: none.
        public var link: String? = nil

        public init(
            key: String, title: String, detail: String? = nil, image: String? = nil, imageDescription: String = "",
            checkbox: Bool? = nil, buttons: [String] = []
        ) {
            self.key = key
            self.title = title
            self.detail = detail
            self.image = image
            self.imageDescription = imageDescription
            self.checkbox = checkbox
            self.buttons = buttons
        }
    }

    private let items = Element("ul", ["class": "rows"])
    private let empty: Label
    private let end = Element("div", ["class": "list-end", "hidden": ""])
    /// Under the rows: a page on its way, or why it failed with Try again (made when first
    /// needed: most lists never show it).
    private var statusLine: (box: Element, text: Label, retry: Button)?
    private var retrySubject = EventSubject<Void>()
    private var current: [Row] = []
    /// Whether `current`'s keys are unique (as `steps` found them, or counted after a whole render).
    private var keysUnique = true
    private var selectedSubject = EventSubject<Int>()
    private var visibleSubject = EventSubject<ClosedRange<Int>>()
    private var endSubject = EventSubject<Void>()
    private var toggleSubject = EventSubject<(key: String, isOn: Bool)>()
    private var buttonSubject = EventSubject<(key: String, button: Int)>()

    /// Whether choosing a row does something (ScreenKit's `onSelect`): only then is a row
    /// focusable, named (its title), clickable and drawn as one (a pointer, a highlight). A row
    /// that does nothing is one stop less for the keyboard, and a screen reader hears no
    /// control that is not one; its checkbox and buttons act either way.
    public let rowsAct: Bool

    public init(emptyText: String = "", class className: String? = nil, rowsAct: Bool = true) {
        self.rowsAct = rowsAct
        empty = Label(emptyText, tag: "p", class: "empty")
        super.init("div", ["class": "list" + (className.map { " " + $0 } ?? ""), "data-list": ""], children: [])
        setChildren([empty, items, end])
    }

    /// What the list shows when it has no rows.
    public var emptyText: String {
        get { empty.text }
        set { empty.text = newValue }
    }

    /// What shows under the rows: a page on its way, or one that failed (with a Try again
    /// button, ``retries``).
    public typealias Footer = ListFooter

    /// The line under the rows (`nil`: none). While a page loads it says so; when one failed it
    /// says why, with a button that asks again.
    public var footer: Footer? {
        didSet {
            guard footer != oldValue else { return }
            if footer == nil, statusLine == nil { return }
            let line = statusLine ?? makeStatusLine()
            switch footer {
            case .loading:
                line.text.text = "Loading…"
                line.retry.isHidden = true
            case .failed(let why):
                line.text.text = "Could not load: \(why)"
                line.retry.isHidden = false
            case .end(let text):
                line.text.text = text
                line.retry.isHidden = true
            case nil:
                line.text.text = ""
            }
            line.box.isHidden = footer == nil
            line.box.setAttribute("class", footer.map {
                switch $0 {
                case .failed: "list-status error"
                case .end: "list-status end-marker"
                case .loading: "list-status"
                }
            } ?? "list-status")
        }
    }

    /// Each press of Try again on a page that failed.
    public var retries: Signal<Void, Never> { retrySubject.signal }

    private func makeStatusLine() -> (box: Element, text: Label, retry: Button) {
        let text = Label("")
        let retry = Button("Try again", class: "row-button")
        retry.onPress = { [weak self] in self?.retrySubject.send(()) }
        // Read out when it changes (a screen reader hears "Loading…", then why it failed).
        let box = Element("div", ["class": "list-status", "role": "status", "hidden": ""], children: [text, retry])
        statusLine = (box, text, retry)
        insertChild(box, at: children.count - 1)   // before the end marker
        return (box, text, retry)
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
    /// Each flip of a row's checkbox: the row's key and the value the box now shows. The row
    /// shows the value of ``rows`` again after it (a flip its owner does not take is undone).
    public var toggledRows: Signal<(key: String, isOn: Bool), Never> { toggleSubject.signal }
    /// Each press of a row's button: the row's key and the button's index in its
    /// ``Row/buttons``.
    public var rowButtonPresses: Signal<(key: String, button: Int), Never> { buttonSubject.signal }
    /// The rows on screen, as the page scrolls.
    public var visibleRows: Signal<ClosedRange<Int>, Never> { visibleSubject.signal }
    /// The end of the list came into view (only while ``loadsMore``).
    public var reachedEnd: Signal<Void, Never> { endSubject.signal }

    private func update(_ new: [Row]) {
        let old = current
        current = new
        empty.isHidden = !new.isEmpty
        guard let steps = Self.steps(from: old, to: new, oldKeysUnique: keysUnique) else {
            items.setChildren(new.enumerated().map { row(new[$0.offset], at: $0.offset) })
            keysUnique = Set(new.lazy.map(\.key)).count == new.count
            return
        }
        keysUnique = true   // `steps` found none repeated
        // Rows that went, from the end (so the indices before them hold), then rows that came
        // or changed, in order: each is one patch.
        for index in steps.removed.reversed() { items.children[index].removeFromParent() }
        // Rows before the first that went, came or changed keep their place and content: a row
        // added at the end of a long list touches that row only, not every row before it.
        let first = min(steps.removed.first ?? new.count, steps.inserted.min() ?? new.count, steps.changed.keys.min() ?? new.count)
        for index in first..<new.count {
            let row = new[index]
            if steps.inserted.contains(index) {
                items.insertChild(self.row(row, at: index), at: index)
            } else if let oldIndex = steps.changed[index] {
                // A checkbox flipped and nothing else: one attribute, not the row.
                if let element = items.children[index] as? RowElement, old[oldIndex].checkbox != nil, let isOn = row.checkbox {
                    var before = old[oldIndex]
                    before.checkbox = isOn
                    if before == row {
                        element.index = index
                        element.check(isOn)
                        continue
                    }
                }
                items.replaceChild(at: index, with: self.row(row, at: index))
            } else if let element = items.children[index] as? RowElement {
                element.index = index
            }
        }
    }

    /// What turns `old` into `new` row by row: the old indices of rows that went, the new
    /// indices of rows that came, and for each row whose content changed its new index and its
    /// old one. `nil` when the rows kept were reordered, keys repeat, or most rows changed (one
    /// patch of the whole list is then smaller than many).
    ///
    /// `oldKeysUnique` says that `old`'s keys are known to be unique (the list keeps track): a few
    /// rows added at the end of rows kept as they were are then found without hashing every key
    /// (the common change of a list many tabs show; issue 60's fan-out profile).
    static func steps(from old: [Row], to new: [Row], oldKeysUnique: Bool = false) -> (removed: [Int], inserted: Set<Int>, changed: [Int: Int])? {
        if oldKeysUnique, new.count > old.count, new.count - old.count <= 4, new[..<old.count].elementsEqual(old) {
            let added = new[old.count...]
            let repeats = added.contains { row in old.contains { $0.key == row.key } || added.lazy.filter { $0.key == row.key }.count > 1 }
            if !repeats { return ([], Set(old.count..<new.count), [:]) }
        }
        let oldKeys = Dictionary(old.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { _, _ in -1 })
        let newKeys = Set(new.map(\.key))
        guard oldKeys.count == old.count, newKeys.count == new.count, !oldKeys.values.contains(-1) else { return nil }
        let removed = old.indices.filter { !newKeys.contains(old[$0].key) }
        var inserted = Set<Int>(), changed: [Int: Int] = [:]
        var lastOld = -1
        for (index, row) in new.enumerated() {
            guard let oldIndex = oldKeys[row.key] else {
                inserted.insert(index)
                continue
            }
            guard oldIndex > lastOld else { return nil }  // reordered
            lastOld = oldIndex
            if old[oldIndex] != row { changed[index] = oldIndex }
        }
        let patches = removed.count + inserted.count + changed.count
        guard patches <= max(8, new.count / 2) else { return nil }  // (a list emptied of many rows: one patch)
        return (removed, inserted, changed)
    }

    private func row(_ row: Row, at index: Int) -> RowElement {
        RowElement(row: row, index: index, acts: rowsAct, id: DerivedID.row(list: items.id, key: row.key))
    }

    /// A press of the button `button` of the row with `key`.
    func pressed(key: String, button: Int) {
        buttonSubject.send((key, button))
    }

    /// A flip of the checkbox of the row with `key`.
    func toggled(key: String, to isOn: Bool) {
        toggleSubject.send((key, isOn))
        // The owner has set the rows by now if it took the flip; if not, the row shows again
        // what the rows say (the page's box was flipped by the click).
        if let index = current.firstIndex(where: { $0.key == key }), let shown = current[index].checkbox, shown != isOn {
            (items.children[index] as? RowElement)?.box?.restate("checked")
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
///
/// Made with a derived id (``DerivedID``: its list's and its key's), a row is the same HTML on
/// every page that shows it, and is drawn from HTML shared with theirs (``SharedRows``). It makes
/// its elements (its checkbox, its text, its buttons) only when something on its page needs
/// them: a message that names one, a checkbox flipped, a drawing not shared. A row added to a
/// list that 500 tabs show is then one element in each tab, not five.
final class RowElement: Element {
    var index: Int
    private let acts: Bool
    /// What the row shows, until it makes its elements.
    private var unmade: ListView.Row?
    private var checkbox: Element?

    /// The row's checkbox, if it has one (the row makes its elements).
    var box: Element? {
        if childrenUnmade { makeChildren() }
        return checkbox
    }

    /// A row for `row`; a click on its checkbox or its buttons goes to the ``ListView`` it is
    /// in (its parent's parent).
    init(row: ListView.Row, index: Int, acts: Bool, id: String? = nil) {
        self.index = index
        self.acts = acts
        unmade = row
        super.init("li", children: [])
        setSorted(acts ? [("class", "row"), ("data-click", ""), ("data-key", row.key)] : [("class", "row"), ("data-key", row.key)])
        if let id { preferredID = id }   // (a derived id: the page gives it, where an app's is checked)
    }

    private var list: ListView? { parent?.parent as? ListView }

    /// Checks or clears the row's checkbox (it has one). An unmade row stays so, and shows the
    /// new value once made; on a page it sends the box's attribute by the id every page gives
    /// the box (the shared HTML it was drawn from had it). A flip that 500 tabs show then makes
    /// no element in them.
    func check(_ isOn: Bool) {
        if unmade?.checkbox != nil {
            guard let document else { unmade?.checkbox = isOn; return }
            if DerivedID.isDerived(id), let boxID = DerivedID.child(of: id, at: Self.boxPosition) {
                unmade?.checkbox = isOn
                document.record(.attribute(boxID, "checked", isOn ? "" : nil), for: self)
                return
            }
        }
        box?.setFlag("checked", isOn)
    }

    override var childrenUnmade: Bool { unmade != nil }

    /// Where a row's checkbox is among the elements it makes (`makeChildren()` puts it there, and
    /// `check(_:)` names it by the id that position derives before the row has made it).
    private static let boxPosition = 0

    /// The classes of the elements a row makes (`makeChildren()`), its own aside.
    static var partClasses: [Element.Type] { [Element.self, Label.self, Image.self, Stack.self] }

    /// Looked through while unmade, a row makes its elements only if one of them could be a `T`:
    /// a page pushed looks for its first text field past every row of a list above it.
    override func first<T: Element>(_ type: T.Type) -> T? {
        if childrenUnmade, !(self is T), !Self.partClasses.contains(where: { $0 is T.Type }) { return nil }
        return super.first(type)
    }

    override func makeChildren() {
        guard let row = unmade else { return }
        unmade = nil
        // A row that acts has one keyboard stop, named by its title, with the role of what it
        // does: its title is a link to its screen's address (the page sets the href from its
        // own), or else a button. A row with a checkbox has that as its stop instead (a click
        // elsewhere on the row still chooses it): one stop per action, not a row that does what
        // its checkbox does. A click anywhere on a row that acts chooses it (`data-click`).
        let title: Element?
        if acts, let link = row.link {
            title = Element("a", sorted: [("class", "title"), ("data-part", "title"), ("data-path", link), ("href", link)], text: row.title)
        } else if acts, row.checkbox == nil {
            title = Element("button", sorted: [("class", "title"), ("data-part", "title"), ("type", "button")], text: row.title)
        } else {
            title = nil
        }
        var text: [Element] = [title ?? Label(row.title, class: "title")]
        if let detail = row.detail { text.append(Label(detail, class: "detail")) }
        var children: [Element] = []
        let key = row.key
        if let isOn = row.checkbox {
            let box = Element("input", sorted: [("aria-label", row.title), ("class", "row-toggle"), ("data-part", "toggle"), ("type", "checkbox")])
            box.on(.change) { [weak self] event in
                if case .change(let value) = event { self?.list?.toggled(key: key, to: value == "true") }
            }
            // Last, where a flip puts it (a page's box and one made later, after flips sent to
            // the page while the row was unmade, have their attributes in the same order).
            box.setFlag("checked", isOn)
            assert(children.count == Self.boxPosition, "a row's checkbox is where check(_:) names it")
            children.append(box)
            checkbox = box
        }
        if let image = row.image { children.append(Image(source: image, description: row.imageDescription, class: "thumb")) }
        children.append(Stack(.vertical, class: "row-text", text))
        for (number, title) in row.buttons.enumerated() {
            // Named with its row ("Delete Buy milk"): a screen reader lists a row's buttons apart.
            let button = Element("button", sorted: [("aria-label", "\(title) \(row.title)"), ("class", "row-button"), ("data-part", "b\(number)"), ("type", "button")], text: title)
            button.on(.click) { [weak self] _ in self?.list?.pressed(key: key, button: number) }
            children.append(button)
        }
        madeChildren(children)
    }

    override func render(into out: inout String) {
        // Unmade on a page under a derived id, the row is what every page shows for its key.
        // Shared only if every element of the row has the id every page gives it: the page
        // numbers a row whose derived id was taken (a key repeated), and an element whose id
        // would be too long.
        guard document != nil, DerivedID.isDerived(id), let row = unmade else { return super.render(into: &out) }
        out += SharedRows.shared.text(for: SharedRows.Key(id: id, row: row, acts: acts)) {
            makeChildren()
            var html = ""
            super.render(into: &html)
            return (html, Self.allDerived(self))
        }
    }

    private static func allDerived(_ element: Element) -> Bool {
        DerivedID.isDerived(element.id) && element.children.allSatisfy(allDerived)
    }
}
