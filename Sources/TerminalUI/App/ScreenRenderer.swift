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
        let content = screen.content.map { ScreenRenderer.view(for: $0) }
        let hintLine = StatusLine(screen.hint ?? hint)
        // A screen without a list (a list scrolls itself, and takes the room left) scrolls
        // when it is taller than the window: a form at 40×12 keeps every field in reach.
        let view = screen.content.contains(where: { containsList($0.kind) })
            ? Stack(.vertical, spacing: 1, content + [hintLine])
            : Stack(.vertical, spacing: 1, [ScrollView(Stack(.vertical, spacing: 1, content)), hintLine])
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
    static func preferFirstField(in view: View) {
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
        let view = element.kind.draw(with: TerminalDrawing(inRow: inRow))
        element.hidden?.bind(to: view, \.isHidden)
        return view
    }

    /// A container takes the height its content needs, unless it holds a list, which takes the
    /// rest of the screen.
    static func fitting(_ view: View) -> View {
        view.heightPolicy = .fit
        return view
    }

    static func containsList(_ kind: any ElementKind) -> Bool {
        kind is ScreenKit.List || kind.children.contains { containsList($0.kind) }
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
