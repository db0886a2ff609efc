import MVVM
import ScreenKit
import Signals

/// Draws any `Screen` (ScreenKit) in the terminal: each element becomes the widget that shows
/// it (a `Label`, a `TextField`, a `Button`, a `ListView`, …), bound to the view model's values
/// for as long as the page is shown, and a hint line at the bottom.
///
/// ```swift
/// let screens = ScreenRegistry<Screen>()              // described once
/// screens.register(CounterViewModel.self, counterScreen)
/// let pages = ScreenRegistry<NavigationStack.Page>()
/// pages.register(all: screens, drawing: ScreenRenderer.page(for:))
/// stack.bind(to: navigator, registry: pages)
/// ```
@MainActor
public enum ScreenRenderer {
    /// The hint line under every described screen.
    public static let hint = "Tab: next • Enter: choose • Esc: back • Ctrl-C: quit"

    /// The page that shows `screen`.
    public static func page(for screen: Screen) -> NavigationStack.Page {
        var views = screen.content.map { ScreenRenderer.view(for: $0) }
        views.append(StatusLine(screen.hint ?? hint))
        let view = Stack(.vertical, spacing: 1, views)
        preferFirstField(in: view)
        bindShortcuts(screen.shortcuts, to: view)
        // The focus goes to the first field; on a screen without one (in the tab shown), to
        // its first list.
        if !screen.shownElements.contains(where: { $0.role == .field || $0.role == .secureField }) {
            first(ListView.self, in: view)?.prefersFocus = true
        }
        screen.appear?()
        return NavigationStack.Page(title: screen.title.value, view: view)
    }

    /// The screen's shortcuts, as the page's key commands, each while its condition holds.
    private static func bindShortcuts(_ shortcuts: [(key: ScreenKit.Shortcut, isActive: Live<Bool>, action: () -> Void)], to view: View) {
        guard !shortcuts.isEmpty else { return }
        let conditions: [Signal<Bool, Never>] = shortcuts.map { $0.isActive.signal }
        _ = Signal<[Bool], Never>.combineLatest(conditions).take(during: view.lifetime).asDriver().drive { [weak view] active in
            var commands: [Key: @MainActor () -> Void] = [:]
            for (shortcut, isActive) in zip(shortcuts, active) where isActive {
                let key = Key(shortcut.key)
                let action = shortcut.action
                if commands[key] == nil { commands[key] = { action() } }
            }
            view?.keyCommands = commands
        }
    }

    /// The first text field of a screen (or of a tab) is its main control: it takes the focus
    /// first, and what is typed while the focus is elsewhere (a tab row, a button) goes to it.
    private static func preferFirstField(in view: View) {
        first(TextField.self, in: view, skipping: { $0 is TabBar })?.prefersFocus = true  // each tab chooses its own
    }

    /// The first view of `type` in `view`'s tree, depth first, not looking inside `skipping`.
    private static func first<Found: View>(_ type: Found.Type, in view: View, skipping: (View) -> Bool = { _ in false }) -> Found? {
        if let found = view as? Found { return found }
        for child in view.children where !skipping(child) {
            if let found = first(type, in: child, skipping: skipping) { return found }
        }
        return nil
    }

    /// The widget of one element, bound to its values (until the widget goes).
    public static func view(for element: Element, inRow: Bool = false) -> View {
        let view = widget(for: element, inRow: inRow)
        element.hidden?.bind(to: view, \.isHidden)
        return view
    }

    private static func widget(for element: Element, inRow: Bool) -> View {
        switch element.kind {
        case .text(let text):
            if text.style == .error {
                let line = StatusLine("", kind: .error)
                text.value.signal.bind(to: line, \.text)
                return line
            }
            let label = Label("", style: style(of: text.style), wraps: true)
            text.value.signal.bind(to: label, \.text)
            return label
        case .field(let field):
            let input = TextField(placeholder: field.placeholder, isSecure: field.isSecure)
            input.bind(to: field.text)
            field.isBusy.signal.bind(to: input, \.isBusy)
            if let submit = field.submit {
                input.submissions.perform(during: input) { _ in submit() }
            }
            // In a row the field is compact (its placeholder says what it is); down the screen
            // its label stands above it.
            return inRow ? input : fitting(Stack(.vertical, [Label(field.label), input]))
        case .button(let button):
            let view = Button(button.title.value)
            button.title.signal.bind(to: view, \.title)
            button.isEnabled.signal.bind(to: view, \.isEnabled)
            button.isBusy.signal.bind(to: view, \.isBusy)
            let press = button.press
            view.onPress = { press() }
            return view
        case .toggle(let toggle):
            let view = Toggle(toggle.label, isOn: toggle.isOn.value)
            view.bind(to: toggle.isOn)
            toggle.isEnabled.signal.bind(to: view, \.isEnabled)
            return view
        case .choice(let choice):
            let control = SegmentedControl(choice.options, selectedIndex: choice.selection.value)
            control.bind(to: choice.selection)
            // Its label before it, as plain text and the browser show it ("List: (•) …").
            let label = Label("\(choice.label):", style: .dim)
            label.widthPolicy = .fit
            return fitting(Stack(.horizontal, spacing: 1, [label, control]))
        case .list(let list):
            return listView(for: list)
        case .image(let image):
            let label = Label("", style: .dim, wraps: true)
            image.alt.signal.combineLatest(image.url.signal) { alt, url in
                url == nil ? "" : "🖼 \(alt)"
            }.bind(to: label, \.text)
            return label
        case .spinner(let spinner):
            let view = Spinner(label: spinner.label)
            spinner.isActive.signal.bind(to: view, \.isAnimating)
            return view
        case .alert(let alert):
            // Nothing on the page itself: each message is presented over the screen.
            let anchor = Label("")
            anchor.heightPolicy = .fixed(0)
            _ = alert.messages.take(during: anchor.lifetime).asDriver().drive { [weak anchor] message in
                anchor?.host?.present(title: message.title, message: message.message, button: message.dismiss)
            }
            return anchor
        case .stack(let stack):
            // A group down the screen is tight; across, its parts are a space apart.
            let row = stack.axis == .horizontal
            let view = Stack(row ? .horizontal : .vertical, spacing: row ? 1 : 0, stack.content.map { self.view(for: $0, inRow: row) })
            return containsList(element) ? view : fitting(view)
        case .section(let section):
            let view = Stack(.vertical, [Label(section.title, style: .bold)] + section.content.map { ScreenRenderer.view(for: $0) })
            return containsList(element) ? view : fitting(view)
        case .tabs(let tabs):
            let bar = TabBar(tabs.tabs.map { tab in
                let content = Stack(.vertical, spacing: 1, tab.content.map { ScreenRenderer.view(for: $0) })
                preferFirstField(in: content)
                return (title: tab.title, content: content as View)
            })
            bar.selectedIndex = tabs.selection.value
            bar.bind(to: tabs.selection)
            return bar
        case .facts(let facts):
            let width = facts.labelWidth
            let lines = facts.facts.map { fact -> View in
                let label = Label("")
                let prefix = fact.prefix(labelWidth: width)
                fact.value.signal.map { prefix + $0 }.bind(to: label, \.text)
                fact.value.signal.map(\.isEmpty).removeDuplicates().bind(to: label, \.isHidden)  // no value, no line
                return label
            }
            return fitting(Stack(.vertical, lines))
        }
    }

    /// A container takes the height its content needs, unless it holds a list, which takes the
    /// rest of the screen.
    private static func fitting(_ view: View) -> View {
        view.heightPolicy = .fit
        return view
    }

    private static func containsList(_ element: Element) -> Bool {
        if case .list = element.kind { return true }
        return element.children.contains(where: containsList)
    }

    private static func listView(for list: ScreenKit.List) -> ListView {
        let view = ListView(emptyText: list.emptyText.value)
        view.heightPolicy = .fill
        list.emptyText.signal.bind(to: view, \.emptyText)
        list.rows.signal.map { rows in
            rows.map { row in
                ListView.Row(row.detail.isEmpty ? [row.title] : [row.title, row.detail], trailing: row.trailing.isEmpty ? nil : row.trailing, checkbox: row.isOn)
            }
        }.bind(to: view, \.rows)
        // A row's checkbox and buttons act on the row's id as the view model has it now.
        let rows = list.rows
        if let toggle = list.toggle {
            view.toggled.perform(during: view) { index in
                let current = rows.value
                if current.indices.contains(index), let isOn = current[index].isOn { toggle(current[index].id, !isOn) }
            }
        }
        for button in list.rowButtons {
            view.keyCommands[Key(button.shortcut)] = { [weak view] in
                guard let view else { return }
                let current = rows.value
                if current.indices.contains(view.selection) { button.press(current[view.selection].id) }
            }
        }
        if let select = list.select {
            view.chosen.perform(during: view) { index in select(index) }
        }
        if let loadMore = list.loadMore {
            let hasMore = list.hasMore, isLoading = list.isLoading
            view.reachedEnd.perform(during: view) { _ in
                if hasMore.value && !isLoading.value { loadMore() }
            }
        }
        // Under the rows: a page on its way, or why it failed (Enter there tries again).
        list.footer?.signal.bind(to: view, \.footer)
        if let retry = list.retry {
            view.retries.perform(during: view) { _ in retry() }
        }
        if let highlight = list.highlight {
            view.highlightChanges.perform(during: view) { index in highlight(index) }
        }
        if let rowsOnScreen = list.rowsOnScreen {
            view.visibleRows.perform(during: view) { range in rowsOnScreen(range) }
        }
        return view
    }

    private static func style(of style: TextStyle) -> Style {
        switch style {
        case .body: .plain
        case .headline: .bold
        case .secondary: .dim
        case .error: Style(bold: true, foreground: .red)
        }
    }
}

extension ScreenRegistry where Screen == NavigationStack.Page {
    /// Registers the screen of `type`'s view models, described once (ScreenKit's `Screen`), to
    /// be drawn by ``ScreenRenderer`` (replacing an earlier registration of `type`). For a whole
    /// registry of described screens, `register(all:drawing:)` with ``ScreenRenderer/page(for:)``.
    @MainActor
    public func register<ViewModel: AnyObject>(_ type: ViewModel.Type, described: @escaping @MainActor (ViewModel) -> ScreenKit.Screen) {
        register(type) { @MainActor in ScreenRenderer.page(for: described($0)) }
    }
}

extension Key {
    /// The key a screen's shortcut names.
    init(_ shortcut: ScreenKit.Shortcut) {
        switch shortcut {
        case .character(let character): self = .character(character)
        case .control(let character): self = .control(character)
        }
    }
}

extension Signal where Failure == Never {
    /// Runs `body` with each value a view sends (its events, on the main actor) while `owner`
    /// lives.
    @MainActor
    @discardableResult
    func perform(during owner: some LifetimeOwner, _ body: @escaping @MainActor (Value) -> Void) -> any Disposable {
        take(during: owner.lifetime).sink(value: { value in MainActor.assumeIsolated { body(value) } })
    }
}
