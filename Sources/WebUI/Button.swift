import MVVM
import Signals

/// A button: a click runs ``onPress`` and sends on ``presses``.
public final class Button: Element {
    public var onPress: (() -> Void)?
    private var pressSubject = EventSubject<Void>()

    public init(_ title: String, class className: String? = nil, onPress: (() -> Void)? = nil) {
        self.onPress = onPress
        super.init("button", ["type": "button", "class": className ?? "button"], text: title)
    }

    /// A button drawn as a link (`<a>`) to the current address with `query` set (an empty
    /// value removes an item): a plain click presses it as any button; a click that opens a
    /// new tab or window, or a bookmark, follows the link. The page's script keeps its `href`
    /// in step with the page's address.
    public init(_ title: String, class className: String? = nil, linkingQuery query: [String: String], onPress: (() -> Void)? = nil) {
        self.onPress = onPress
        // The items, encoded: all of them for the page's script (an empty value removes one),
        // those with a value for the link it starts with ("?filter=active").
        let items = query.sorted { $0.key < $1.key }.map { WebLocation.QueryItem($0.key, $0.value) }
        let all = WebLocation(path: "/", query: items).description.dropFirst(2)
        let set = WebLocation(path: "/", query: items.filter { !$0.value.isEmpty }).description.dropFirst()
        super.init("a", ["class": className ?? "button", "href": set.isEmpty ? "?" : String(set), "data-query": String(all)], text: title)
    }

    /// A button drawn as a link (`<a>`) to one of the app's screens, at `path` under the page's
    /// address (`/person` and "settings": `/person/settings`): a plain click presses it as any
    /// button; a click that opens a new tab or window, or a bookmark, follows the link. The
    /// page's script keeps its `href` in step with the page's address.
    public init(_ title: String, class className: String? = nil, linkingPath path: [String], onPress: (() -> Void)? = nil) {
        self.onPress = onPress
        let relative = WebLocation.relativePath(path)
        // `data-press`: a click presses it (a row's title link, also `data-path`, is its row's).
        super.init("a", ["class": className ?? "button", "href": relative, "data-path": relative, "data-press": ""], text: title)
    }

    public var presses: Signal<Void, Never> { pressSubject.signal }

    /// A link can be neither disabled nor busy in HTML: it says so with `aria-disabled`.
    public var isEnabled: Bool {
        get { tag == "a" ? attribute("aria-disabled") == nil : attribute("disabled") == nil }
        set {
            if tag == "a" { setAttribute("aria-disabled", newValue ? nil : "true") } else { setFlag("disabled", !newValue) }
        }
    }

    /// Busy: shown with a spinner, and clicks are ignored.
    public var isBusy = false {
        didSet { setAttribute("aria-busy", isBusy ? "true" : nil) }
    }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard event == .click else { return false }
        guard isEnabled, !isBusy else { return true }  // a click the page sent before it heard
        onPress?()
        pressSubject.send(())
        return true
    }
}
