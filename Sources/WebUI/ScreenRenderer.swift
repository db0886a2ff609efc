import MVVM
import ScreenKit
import Signals

/// Draws any `Screen` (ScreenKit) in the browser: each element becomes the element that shows it
/// (a `<p>`, an `<input>`, a `<button>`, a list, …), bound to the view model's values for as
/// long as the page is shown.
///
/// ```swift
/// registry.register(CounterViewModel.self, described: counterScreen)   // a screen described once
/// ```
public enum ScreenRenderer {
    /// An image a screen shows: its URL (if any), what it shows, the row or screen it belongs
    /// to, and its shape.
    public struct ImageRequest: Sendable {
        public let url: String?
        public let alt: String
        public let key: String
        public let shape: ImageShape
        /// A row's thumbnail (small) or an image of its own (large).
        public let isThumbnail: Bool
    }

    /// What the page loads for an image (a live URL, or an offline placeholder); `nil`: none.
    public typealias ImageSource = (ImageRequest) -> String?

    /// The page that shows `screen`; its `onAppear` runs, unless a ``NavigationStack`` is
    /// building the page again for a view model it showed before (its page went while another
    /// was on top).
    public static func page(for screen: Screen, images: @escaping ImageSource = { $0.url }) -> NavigationStack.Page {
        // The screen's own hint under it, as the terminal draws it, but for the parts whose
        // keys only a terminal has (Ctrl-D on a row, Ctrl-C): Enter, Esc, Space, Tab and the
        // arrows work in the page too.
        let hint = screen.hintOutsideTerminal.map { [Label($0, tag: "p", class: "hint") as Element] } ?? []
        let content = Stack(.vertical, screen.content.map { element(for: $0, images: images) } + hint)
        bindShortcuts(screen.shortcuts, to: content)
        if !NavigationStack.isBuildingAgain { screen.appear?() }
        return NavigationStack.Page(title: screen.title.value, content: content, titleChanges: screen.title.isConstant ? nil : screen.title.signal)
    }

    /// The screen's shortcuts that are a plain key (Movies' `r`), as the terminal has them:
    /// pressed anywhere on the page but in a text field, each while its condition holds. A
    /// shortcut with Ctrl is the terminal's alone (the browser's own keys: Ctrl-R reloads).
    private static func bindShortcuts(_ shortcuts: [(key: ScreenKit.Shortcut, isActive: Live<Bool>, action: () -> Void)], to content: Element) {
        let plain = shortcuts.compactMap { shortcut -> (key: String, isActive: Live<Bool>, action: () -> Void)? in
            guard case .character(let character) = shortcut.key, !character.isWhitespace else { return nil }
            return (String(character), shortcut.isActive, shortcut.action)
        }
        guard !plain.isEmpty else { return }
        content.onShortcuts(Set(plain.map(\.key))) { event in
            guard case .key(let key) = event, let shortcut = plain.first(where: { $0.key == key && $0.isActive.value }) else { return }
            shortcut.action()
        }
        // The page sends only the keys that act now: the others stay the browser's.
        let conditions = plain.map(\.isActive.signal)
        Signal<[Bool], Never>.combineLatest(conditions).drive(during: content) { [weak content] active in
            var keys: [String] = []
            for (shortcut, isActive) in zip(plain, active) where isActive && !keys.contains(shortcut.key) { keys.append(shortcut.key) }
            content?.setAttribute("data-mvvm-shortcuts", keys.isEmpty ? nil : keys.joined(separator: " "))
        }
    }

    /// Sets `keyPath` of `element` to `value` now, and to each change while the element lives;
    /// a constant is only set (a page keeps no subscription for what never changes).
    static func follow<Value: Sendable, Target: Element>(_ value: Live<Value>, _ element: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>) {
        if value.isConstant {
            element[keyPath: keyPath] = value.value
        } else {
            value.signal.bind(to: element, keyPath)
        }
    }

    /// The element that shows one element of a screen, bound to its values (until it goes).
    public static func element(for element: ScreenKit.Element, images: @escaping ImageSource = { $0.url }, inRow: Bool = false) -> Element {
        let shown = element.kind.draw(with: WebDrawing(images: images, inRow: inRow))
        let hooks = element.web
        if !hooks.classes.isEmpty {
            shown.setAttribute("class", ([shown.attribute("class")].compactMap { $0 } + hooks.classes).joined(separator: " "))
        }
        // The id and the name go on the control itself: a field's input, not the label and
        // input around it; a choice's buttons; a toggle's checkbox.
        let control = control(in: shown)
        if let id = hooks.id { control.preferredID = id }
        if let label = hooks.accessibilityLabel { control.setAttribute("aria-label", label) }
        if element.visibility == nil, let text = element.kind as? ScreenKit.Text, text.value.isConstant {
            shown.isHidden = text.value.value.isEmpty   // fixed text: hidden only if empty, for good
        } else {
            element.hidden?.bind(to: shown, \.isHidden)
        }
        return shown
    }

    /// The control a field, a choice or a toggle wraps with its label; else `shown` itself.
    private static func control(in shown: Element) -> Element {
        let classes = (shown.attribute("class") ?? "").split(separator: " ")
        guard classes.contains("field") || classes.contains("toggle") else { return shown }
        func first(in element: Element) -> Element? {
            if element.tag == "input" || element.attribute("role") == "tablist" { return element }
            return element.children.lazy.compactMap(first).first
        }
        return first(in: shown) ?? shown
    }

}

extension ScreenRegistry where Screen == NavigationStack.Page {
    /// Registers a screen described once, drawn by ``ScreenRenderer``.
    public func register<ViewModel: AnyObject>(
        _ type: ViewModel.Type,
        described: @escaping (ViewModel) -> ScreenKit.Screen,
        images: @escaping ScreenRenderer.ImageSource = { $0.url }
    ) {
        register(type) { ScreenRenderer.page(for: described($0), images: images) }
    }

    /// Registers a screen described on the main actor, for a `@MainActor` view model, drawn by
    /// ``ScreenRenderer`` there: for sessions on the main actor
    /// (``WebSessions/init(onMainActor:services:limits:log:screens:)``). Asked for in a session
    /// on another executor, it stops the program, saying so.
    public func register<ViewModel: AnyObject>(
        _ type: ViewModel.Type,
        describedOnMainActor described: @escaping @MainActor (ViewModel) -> ScreenKit.Screen,
        images: @escaping ScreenRenderer.ImageSource = { $0.url }
    ) {
        // SAFETY: called only on the main actor (the registry checks), the one caller.
        nonisolated(unsafe) let images = images
        register(type, onMainActor: { ScreenRenderer.page(for: described($0), images: images) })
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
