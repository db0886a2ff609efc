import MVVM
import ScreenKit
import Signals

/// A node of a page: an HTML element the server owns. An element lives on the executor it was
/// built on (its session's, see ``WebExecutor``) and is used only there; each has an id in its
/// ``Document``, a `Lifetime` and a `DisposeBag`, so bindings to an element end when it goes
/// away.
///
/// Changing an element on a page that is on screen records a patch (its text, an attribute, its
/// children), which the document sends to the browser at the end of the session's turn; the
/// browser never receives the whole page again. A widget subclass answers the browser's events
/// for it in ``handle(_:target:)``.
open class Element: LifetimeOwner {
    // The lifetime, the bag and the kept subscriptions are made when first asked for: most
    // elements of a page never need one of them, and a session holds every element of its page.
    private var lifetimeToken: Lifetime.Token?
    private var madeBag: DisposeBag?
    /// What the element's bindings and event handlers keep alive (see `keep(_:)`).
    private var kept: [KeptSubscription] = []

    /// Ends when the element is deinitialised.
    public var lifetime: Lifetime {
        if let lifetimeToken { return lifetimeToken.lifetime }
        let token = Lifetime.Token()
        lifetimeToken = token
        return token.lifetime
    }

    /// Subscriptions that live exactly as long as the element: put an element's wiring here.
    public var bag: DisposeBag {
        if let madeBag { return madeBag }
        let bag = DisposeBag()
        madeBag = bag
        return bag
    }

    /// The HTML tag.
    public let tag: String
    /// The id in the page (`e` and a number; for a list's row and what is in it, one named by the
    /// list and the row's key, `e12.k7.1`), given when the element joins a document.
    public private(set) var id = ""
    /// The id the element asks for instead (an app's own, for its stylesheet or its tests):
    /// given when it joins a document, if it is valid (ScreenKit's `WebHooks.isValidID`) and no
    /// element on the page has it; else the element gets one of WebUI's. Set it before the
    /// element joins a page. (Kept in ``id`` until then: a page has many elements, and a field
    /// apiece for the few that ask would cost every tab.)
    public var preferredID: String? {
        get { WebHooks.isValidID(id) ? id : nil }
        set { if document == nil { id = newValue ?? "" } }
    }

    /// The id asked for before joining a page (set by ``preferredID``): an app's, or one WebUI
    /// derives (``DerivedID``); empty when none.
    var askedID: String { document == nil ? id : "" }
    /// The element's children. (A list's row makes its own when they are first asked for: until
    /// then it is drawn from HTML the tabs that show it share.)
    public private(set) var children: [Element] {
        get {
            if madeChildren.isEmpty { makeChildren() }
            return madeChildren
        }
        _modify {
            if madeChildren.isEmpty { makeChildren() }
            yield &madeChildren
        }
    }
    /// The children made so far: what the document attaches and detaches. Only a list's row
    /// (``RowElement``) has children it has not made yet: a row many tabs show is drawn from
    /// HTML they share, and made in a tab only when something there needs its elements.
    private(set) var madeChildren: [Element] = []
    /// Whether the element has children it has not made yet (``makeChildren()``). Asked of the
    /// subclass, not kept in a field: a page has many elements, and every tab would pay for a
    /// field only rows use.
    var childrenUnmade: Bool { false }
    public private(set) weak var parent: Element?
    /// The document the element is on, if it is on one.
    public private(set) weak var document: Document?
    private var attributes: [(name: String, value: String)] = []
    private var textContent: String?

    /// An element `<tag>` with `attributes`, and text if given (an element with text has no
    /// children).
    public init(_ tag: String, _ attributes: [String: String] = [:], text: String? = nil, children: [Element] = []) {
        self.tag = tag
        if attributes.count == 1, let (name, value) = attributes.first {
            // (Most elements have one attribute, their class: no array to sort.)
            self.attributes = [(name, HTML.urlAttributes.contains(name) ? HTML.safeURL(value) : value)]
        } else if !attributes.isEmpty {
            self.attributes = attributes.sorted { $0.key < $1.key }.map { ($0.key, HTML.urlAttributes.contains($0.key) ? HTML.safeURL($0.value) : $0.value) }
        }
        self.textContent = text
        for child in children { append(child) }
    }

    /// An element `<tag>` with `attributes` already in order of their names (as the other
    /// initialiser sorts them): for elements made by the thousand (a list's rows), with no
    /// dictionary to hash and sort.
    convenience init(_ tag: String, sorted attributes: [(name: String, value: String)], text: String? = nil, children: [Element] = []) {
        self.init(tag, [:], text: text, children: children)
        setSorted(attributes)
    }

    /// Gives an element that is on no page yet `attributes`, already in order of their names
    /// (a subclass's, after its `super.init`).
    func setSorted(_ attributes: [(name: String, value: String)]) {
        assert(document == nil && zip(attributes, attributes.dropFirst()).allSatisfy { $0.name < $1.name }, "attributes not in order, or the element is on a page: \(attributes)")
        self.attributes = attributes.contains(where: { HTML.urlAttributes.contains($0.name) })
            ? attributes.map { ($0.name, HTML.urlAttributes.contains($0.name) ? HTML.safeURL($0.value) : $0.value) }
            : attributes
    }

    deinit {
        for subscription in kept { subscription.dispose() }
    }

    /// Makes the children the element has not made yet (``childrenUnmade``), if any: overridden
    /// by the one subclass that has such children, which gives them with ``madeChildren(_:)``.
    func makeChildren() {}

    /// Gives an element whose children were unmade the children `elements`, which join its
    /// document (if it is on one) as if they had been there from the start: no patch, as the
    /// page already shows them.
    func madeChildren(_ elements: [Element]) {
        assert(madeChildren.isEmpty, "children made twice")
        madeChildren = elements
        for element in elements { element.parent = self }
        document?.attachChildren(of: self)
    }

    /// Keeps `subscription` (a binding to this element, a handler of its events) until the
    /// element goes, then disposes it. Ended subscriptions are dropped as the list grows, so an
    /// element bound again and again keeps only its live ones.
    func keep(_ subscription: KeptSubscription) {
        if kept.count == kept.capacity && !kept.isEmpty { kept.removeAll { $0.isDisposed } }
        kept.append(subscription)
    }

    /// How many subscriptions the element keeps (for tests).
    var keptCount: Int { kept.count }

    // MARK: Content

    /// The element's text; setting it replaces its children.
    public var text: String {
        get { textContent ?? "" }
        set {
            guard textContent != newValue || !children.isEmpty else { return }
            if !children.isEmpty { detach(children); children = [] }
            textContent = newValue
            document?.record(.text(id, newValue), for: self)
        }
    }

    /// The value of attribute `name`, if set.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Sets attribute `name` (`nil` removes it). A URL attribute (`href`, `src`, `action`…) whose
    /// scheme runs script (`javascript:`, `vbscript:`, `data:text/html`) is set to `about:blank`
    /// instead: text from a view model (a live API's answer) never becomes script.
    public func setAttribute(_ name: String, _ value: String?) {
        let value = value.map { HTML.urlAttributes.contains(name) ? HTML.safeURL($0) : $0 }
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            guard attributes[index].value != value else { return }
            if let value { attributes[index].value = value } else { attributes.remove(at: index) }
        } else {
            guard let value else { return }
            attributes.append((name, value))
        }
        document?.record(.attribute(id, name, value), for: self)
    }

    /// Sends attribute `name`'s value to the page again, unchanged here: the page changed it
    /// itself (a checkbox the user clicked) and the server did not take the change.
    func restate(_ name: String) {
        document?.record(.attribute(id, name, attribute(name)), for: self)
    }

    /// Sets or removes a boolean attribute (`disabled`, `hidden`).
    public func setFlag(_ name: String, _ isOn: Bool) {
        setAttribute(name, isOn ? "" : nil)
    }

    /// Whether the element is hidden (the `hidden` attribute).
    public var isHidden: Bool {
        get { attribute("hidden") != nil }
        set { setFlag("hidden", newValue) }
    }

    /// Adds `child` at the end.
    public func append(_ child: Element) {
        guard textContent == nil else { return setChildren([child]) }
        child.removeFromParent()
        child.parent = self
        children.append(child)
        if let document {
            document.attach(child)
            document.record(.append(id, child.html), for: self)
        }
    }

    /// Replaces every child.
    public func setChildren(_ elements: [Element]) {
        for element in elements { element.removeFromParent() }
        detach(children)
        textContent = nil
        children = elements
        for element in elements {
            element.parent = self
            if let document { document.attach(element) }
        }
        document?.record(.children(id, childrenHTML), for: self)
    }

    /// Replaces the child at `index` with `element`: one patch for that child.
    public func replaceChild(at index: Int, with element: Element) {
        let old = children[index]
        element.removeFromParent()
        let oldID = old.id
        detach([old])
        element.parent = self
        children[index] = element
        if let document {
            document.attach(element)
            document.record(.replace(oldID, element.html), for: self)
        }
    }

    /// Puts `element` at `index` among the children (at the end if `index` is their count):
    /// one patch for that child.
    public func insertChild(_ element: Element, at index: Int) {
        guard index < children.count, textContent == nil else { return append(element) }
        element.removeFromParent()
        let next = children[index]
        element.parent = self
        children.insert(element, at: index)
        if let document {
            document.attach(element)
            document.record(.insert(next.id, element.html), for: self)
        }
    }

    /// Removes the children from `index` on: one patch per child.
    public func removeChildren(from index: Int) {
        guard index < children.count else { return }
        let removed = Array(children[index...])
        children.removeSubrange(index...)
        for child in removed {
            let oldID = child.id
            detach([child])
            document?.record(.remove(oldID), for: self)
        }
    }

    /// The first element of `type` in this element's tree (itself included), depth first: for
    /// tests and for pages that look up a part they built.
    public func first<T: Element>(_ type: T.Type) -> T? {
        if let match = self as? T { return match }
        for child in children {
            if let match = child.first(type) { return match }
        }
        return nil
    }

    /// Takes the element off its parent.
    public func removeFromParent() {
        guard let parent else { return }
        guard let index = parent.children.firstIndex(where: { $0 === self }) else { return }
        let oldID = id
        parent.children.remove(at: index)
        parent.detach([self])
        parent.document?.record(.remove(oldID), for: parent)
    }

    private func detach(_ elements: [Element]) {
        for element in elements {
            element.parent = nil
            document?.detach(element)
        }
    }

    // MARK: Document

    /// Joins `document` as `id` (a subclass in this module may react, calling super).
    func didAttach(to document: Document, id: String) {
        self.document = document
        self.id = id
    }

    func didDetach() {
        document = nil
        // An id the app asked for is asked for again if the element joins a page again (one
        // derived from a place is not: the place may be another one then).
        if !WebHooks.isValidID(id) { id = "" }
    }

    // MARK: Events from any element

    /// The events an element asks the page for, declared on the element itself (as LiveView's
    /// `phx-click` and `phx-change` are): any element, a `<div>` or a custom element.
    public struct Events: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A click, or Enter or Space while it has the focus.
        public static let click = Events(rawValue: 1)
        /// A `change` event, with the element's value.
        public static let change = Events(rawValue: 2)
        /// A form's submit (the page does not navigate).
        public static let submit = Events(rawValue: 4)
    }

    private var declaredEvents: (events: Events, keys: Set<String>, perform: (ClientEvent) -> Void)?

    /// Asks the page for `events` on this element, and for the key presses named in `keys`
    /// (`"Enter"`, `"Escape"`, `"ArrowUp"`, `" "`), and runs `perform` with each on the
    /// element's executor: ``ClientEvent/click``, ``ClientEvent/change(_:)``, ``ClientEvent/submit``,
    /// ``ClientEvent/key(_:)``. It is written on the element (`data-mvvm-on`, `data-mvvm-keys`),
    /// so the page needs no script of the app's; a key asked for does not also do what the
    /// browser would (it is the element's). Calling it again replaces what was asked for. An
    /// event the element did not ask for is refused, and logged, as any unexpected message is.
    public func on(_ events: Events, keys: [String] = [], perform: @escaping (ClientEvent) -> Void) {
        var names: [String] = []
        if events.contains(.click) { names.append("click") }
        if events.contains(.change) { names.append("change") }
        if events.contains(.submit) { names.append("submit") }
        setAttribute("data-mvvm-on", names.isEmpty ? nil : names.joined(separator: " "))
        setAttribute("data-mvvm-keys", keys.isEmpty ? nil : keys.map { $0 == " " ? "Space" : $0 }.joined(separator: " "))
        declaredEvents = (events, Set(keys), perform)
    }

    /// Takes the screen's shortcut keys (`"r"`) pressed anywhere on the page outside a text
    /// field, with no Ctrl, Alt or Meta (those stay the browser's: Ctrl-R reloads): the page
    /// sends them to this element while they are listed in `data-mvvm-shortcuts`, which the
    /// caller keeps to the keys that act now. `perform` gets each as ``ClientEvent/key(_:)``.
    func onShortcuts(_ keys: Set<String>, perform: @escaping (ClientEvent) -> Void) {
        declaredEvents = ([], keys, perform)
    }

    /// Runs the handler of ``on(_:keys:perform:)`` if the element asked for `event`.
    func handleDeclared(_ event: ClientEvent) -> Bool {
        guard let declared = declaredEvents else { return false }
        let asked: Bool
        switch event {
        case .click: asked = declared.events.contains(.click)
        case .change: asked = declared.events.contains(.change)
        case .submit: asked = declared.events.contains(.submit)
        case .key(let key): asked = declared.keys.contains(key)
        default: asked = false
        }
        if asked { declared.perform(event) }
        return asked
    }

    // MARK: Events

    /// Answers an event from the browser for `target`, this element or one inside it (events
    /// go to the target first, then to each element around it, until one takes it); returns
    /// `false` if the element does not take it.
    open func handle(_ event: ClientEvent, target: Element) -> Bool {
        false
    }

    // MARK: HTML

    /// The element as HTML, with its id.
    public var html: String {
        var out = ""
        render(into: &out)
        return out
    }

    var childrenHTML: String {
        var out = ""
        for child in children { child.render(into: &out) }
        return out
    }

    func render(into out: inout String) {
        out += "<"
        out += tag
        if !id.isEmpty {
            out += " id=\""
            out += id
            out += "\""
        }
        for attribute in attributes {
            out += " "
            out += attribute.name
            if !attribute.value.isEmpty || !HTML.booleanAttributes.contains(attribute.name) {
                out += "=\""
                HTML.escape(attribute.value, into: &out)
                out += "\""
            }
        }
        out += ">"
        guard !HTML.voidElements.contains(tag) else { return }
        if let textContent {
            // The HTML parser drops a line break right after `<textarea>` or `<pre>`: one more
            // keeps the text's own.
            if tag == "textarea" || tag == "pre", let first = textContent.unicodeScalars.first, first == "\n" || first == "\r" { out += "\n" }
            HTML.escape(textContent, into: &out)
        } else {
            for child in children { child.render(into: &out) }
        }
        out += "</"
        out += tag
        out += ">"
    }
}

/// HTML text and attribute escaping.
public enum HTML {
    /// Elements with no closing tag.
    public static let voidElements: Set<String> = ["img", "input", "br", "hr", "meta", "link"]
    /// Attributes written without a value when empty (`disabled`, not `disabled=""`).
    public static let booleanAttributes: Set<String> = ["disabled", "hidden", "checked", "autofocus", "readonly", "selected"]
    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "poster", "srcset", "xlink:href"]

    /// `url`, or `about:blank` if its scheme would run script. Browsers ignore ASCII whitespace
    /// and control characters inside a scheme, so they are ignored here too.
    public static func safeURL(_ url: String) -> String {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar == ":" { break }
            if scalar.value <= 0x20 { continue }
            scheme.unicodeScalars.append(scalar)
            if scheme.count > 16 { return url }
        }
        let lowered = scheme.lowercased()
        if lowered == "javascript" || lowered == "vbscript" { return "about:blank" }
        if lowered == "data", !url.lowercased().contains("image/") { return "about:blank" }
        return url
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped: safe in text and in quoted attributes.
    public static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    static func escape(_ text: String, into out: inout String) {
        // The runs between the characters escaped are appended whole (as `JSON.string` does).
        let utf8 = text.utf8
        var run = utf8.startIndex, index = run
        while index != utf8.endIndex {
            let escaped: String
            switch utf8[index] {
            case 0x26: escaped = "&amp;"
            case 0x3C: escaped = "&lt;"
            case 0x3E: escaped = "&gt;"
            case 0x22: escaped = "&quot;"
            case 0x27: escaped = "&#39;"
            default:
                utf8.formIndex(after: &index)
                continue
            }
            if run != index { out += Substring(utf8[run..<index]) }
            out += escaped
            utf8.formIndex(after: &index)
            run = index
        }
        if run == utf8.startIndex {
            out += text
        } else if run != utf8.endIndex {
            out += Substring(utf8[run...])
        }
    }
}
