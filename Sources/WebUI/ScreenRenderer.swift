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
    private static func follow<Value: Sendable, Target: Element>(_ value: Live<Value>, _ element: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>) {
        if value.isConstant {
            element[keyPath: keyPath] = value.value
        } else {
            value.signal.bind(to: element, keyPath)
        }
    }

    /// The element that shows one element of a screen, bound to its values (until it goes).
    public static func element(for element: ScreenKit.Element, images: @escaping ImageSource = { $0.url }, inRow: Bool = false) -> Element {
        let shown = widget(for: element, images: images, inRow: inRow)
        let hooks = element.web
        if !hooks.classes.isEmpty {
            shown.setAttribute("class", ([shown.attribute("class")].compactMap { $0 } + hooks.classes).joined(separator: " "))
        }
        // The id and the name go on the control itself: a field's input, not the label and
        // input around it; a choice's buttons; a toggle's checkbox.
        let control = control(in: shown)
        if let id = hooks.id { control.preferredID = id }
        if let label = hooks.accessibilityLabel { control.setAttribute("aria-label", label) }
        if element.visibility == nil, case .text(let text) = element.kind, text.value.isConstant {
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

    private static func widget(for element: ScreenKit.Element, images: @escaping ImageSource, inRow: Bool) -> Element {
        switch element.kind {
        case .text(let text):
            let label: Label
            switch text.style {
            case .headline: label = Label("", tag: "h2", class: "headline")
            case .body: label = Label("", tag: "p")
            case .secondary: label = Label("", tag: "p", class: "dim")
            case .error: label = Label("", tag: "p", class: "error")
            }
            follow(text.value, label, \.text)
            return label
        case .field(let field):
            let input = field.isSecure
                ? SecureField(placeholder: field.placeholder, label: field.label)
                : TextField(placeholder: field.placeholder, label: field.label)
            input.bind(to: field.text)
            input.clearsOnSubmit = field.clearsOnSubmit
            follow(field.isBusy, input, \.isBusy)
            if let submit = field.submit {
                input.submissions.perform(during: input) { _ in submit() }
            }
            // In a row the field is compact (its placeholder says what it is).
            return inRow ? input : Stack(.vertical, class: "field", [Label(field.label, class: "dim"), input])
        case .button(let button):
            let view = button.linkQuery.map { Button(button.title.value, linkingQuery: $0) } ?? Button(button.title.value)
            follow(button.title, view, \.text)
            follow(button.isEnabled, view, \.isEnabled)
            follow(button.isBusy, view, \.isBusy)
            let press = button.press
            view.onPress = { press() }
            return view
        case .toggle(let toggle):
            let view = Toggle(toggle.label, isOn: toggle.isOn.value)
            view.bind(to: toggle.isOn)
            follow(toggle.isEnabled, view, \.isEnabled)
            return view
        case .choice(let choice):
            let control = SegmentedControl(choice.options)
            control.selectedIndex = choice.selection.value
            control.bind(to: choice.selection)
            control.setAttribute("aria-label", choice.label)
            // Its label before it, as the terminal and plain text show it; in a row, its name only.
            return inRow ? control : Stack(.horizontal, class: "field choice", [Label(choice.label + ":", class: "dim"), control])
        case .list(let list):
            return listView(for: list, images: images)
        case .image(let image):
            let view = Image(source: "", description: image.alt.value, class: image.shape == .poster ? "poster-large" : "photo")
            let alt = image.alt, showsWithoutURL = image.showsWithoutURL
            image.url.signal.drive(during: view) { [weak view] url in
                let source = url != nil || showsWithoutURL
                    ? images(ImageRequest(url: url, alt: alt.value, key: alt.value, shape: image.shape, isThumbnail: false)) : nil
                view?.source = source ?? ""
                view?.isHidden = source == nil
            }
            return view
        case .spinner(let spinner):
            let view = Spinner(label: spinner.label)
            follow(spinner.isActive, view, \.isAnimating)
            return view
        case .alert(let alert):
            // Nothing on the page itself: each message is a dialog over it.
            let anchor = Element("span", ["hidden": ""])
            alert.messages.drive(during: anchor) { [weak anchor] message in
                anchor?.document?.present(title: message.title, message: message.message, button: message.dismiss)
            }
            return anchor
        case .stack(let stack):
            let row = stack.axis == .horizontal
            return Stack(row ? .horizontal : .vertical, stack.content.map { self.element(for: $0, images: images, inRow: row) })
        case .section(let section):
            return Stack(.vertical, class: "section", [Label(section.title, tag: "h3")] + section.content.map { self.element(for: $0, images: images) })
        case .tabs(let tabs):
            let bar = TabBar(tabs.tabs.map { tab in
                (title: tab.title, content: Stack(.vertical, tab.content.map { self.element(for: $0, images: images) }) as Element)
            })
            bar.selectedIndex = tabs.selection.value
            bar.bind(to: tabs.selection)
            return bar
        case .facts(let facts):
            return Element("dl", ["class": "facts"], children: facts.facts.flatMap { fact -> [Element] in
                let label = Element("dt", text: fact.label), value = Element("dd", text: fact.value.value)
                follow(fact.value, value, \.text)
                for element in [label, value] {
                    fact.value.signal.map(\.isEmpty).removeDuplicates().bind(to: element, \.isHidden)  // no value, no line
                }
                return [label, value]
            })
        }
    }

    private static func listView(for list: ScreenKit.List, images: @escaping ImageSource) -> ListView {
        let view = ListView(emptyText: list.emptyText.value, class: list.thumbnails.map { $0 == .poster ? "posters" : "photos" }, rowsAct: list.select != nil)
        follow(list.emptyText, view, \.emptyText)
        let shape = list.thumbnails
        let buttons = list.rowButtons.map(\.title)
        let link = list.rowLink   // drawn only on rows that act (ListView's rule)
        list.rows.signal.drive(during: view) { [weak view] rows in
            view?.rows = rows.map { row in
                let image = shape.flatMap { shape in
                    images(ImageRequest(url: row.imageURL, alt: row.imageAlt, key: row.id, shape: shape, isThumbnail: true))
                }
                var shown = ListView.Row(key: row.id, title: row.title, detail: [row.detail, row.trailing].filter { !$0.isEmpty }.joined(separator: " · ").nilIfEmpty,
                                         image: image, imageDescription: row.imageAlt, checkbox: row.isOn, buttons: buttons)
                shown.link = link?(row).map(WebLocation.relativePath)
                return shown
            }
        }
        if let toggle = list.toggle {
            view.toggledRows.perform(during: view) { flip in toggle(flip.key, flip.isOn) }
        }
        let rowButtons = list.rowButtons
        if !rowButtons.isEmpty {
            view.rowButtonPresses.perform(during: view) { press in
                if rowButtons.indices.contains(press.button) { rowButtons[press.button].press(press.key) }
            }
        }
        if let select = list.select {
            view.chosen.perform(during: view) { index in select(index) }
        }
        if let loadMore = list.loadMore {
            follow(list.hasMore, view, \.loadsMore)
            let hasMore = list.hasMore, isLoading = list.isLoading
            view.reachedEnd.perform(during: view) { _ in
                if hasMore.value && !isLoading.value { loadMore() }
            }
        }
        if let rowsOnScreen = list.rowsOnScreen {
            view.visibleRows.perform(during: view) { range in rowsOnScreen(range.lowerBound..<(range.upperBound + 1)) }
        }
        // Under the rows, as in the terminal: a page on its way, or why it failed with Try again.
        list.footer?.signal.bind(to: view, \.footer)
        if let retry = list.retry {
            view.retries.perform(during: view) { _ in retry() }
        }
        return view
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
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
