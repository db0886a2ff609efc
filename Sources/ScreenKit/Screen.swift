import MVVM
import Signals

/// A screen described once: what it shows, what it binds and what it lets a person press, as a
/// value. The terminal, the browser, plain text and the headless tester each draw any screen.
///
/// ```swift
/// func loginScreen(_ viewModel: LoginViewModel) -> Screen {
///     Screen(viewModel.title) {
///         TextField("User name", text: viewModel.userName)
///         SecureField("Password", text: viewModel.password, onSubmit: viewModel.login)
///         Button("Login", action: viewModel.login)
///         Spinner("Signing in…", isActive: viewModel.isLoggingIn)
///         Text(viewModel.statusText.map { $0 ?? "" }, style: .error)
///     }
/// }
/// ```
///
/// A description holds the view model's properties and actions; building one subscribes to
/// nothing and runs nothing. A renderer subscribes while it shows the screen and lets go when
/// the screen goes.
public struct Screen {
    /// The title: the terminal's header, the page's `<title>`, plain text's first line.
    public let title: Live<String>
    /// What the screen shows, top to bottom.
    public let content: [Element]
    /// Runs when a renderer shows the screen (SwiftUI's `onAppear`): a list's first page, a
    /// detail's load. Building the description runs nothing.
    public private(set) var appear: (() -> Void)?
    /// Keys that run something wherever the focus is, each while its condition holds.
    public private(set) var shortcuts: [(key: Shortcut, isActive: Live<Bool>, action: () -> Void)] = []
    /// The parts of the line of key hints a layer with keys shows under the screen (see
    /// ``Hint``); empty: the layer's own default.
    public private(set) var hints: [Hint] = []

    /// The line of key hints a terminal shows under the screen, every part of it (its own
    /// default if `nil`).
    public var hint: String? {
        hints.isEmpty ? nil : hints.map(\.text).joined(separator: Hint.separator)
    }

    /// The line of key hints a layer without a terminal's keys (a browser's page) shows: the
    /// parts not marked ``Hint/terminalOnly(_:)``; `nil` if none is left.
    public var hintOutsideTerminal: String? {
        let parts = hints.filter { !$0.isTerminalOnly }
        return parts.isEmpty ? nil : parts.map(\.text).joined(separator: Hint.separator)
    }

    /// A screen with a fixed title.
    public init(_ title: String, @ScreenBuilder content: () -> [Element]) {
        self.title = .constant(title)
        self.content = content()
    }

    /// A screen whose title follows a property (a search's text, a loaded movie's name).
    public init(title: some LiveConvertible<String>, @ScreenBuilder content: () -> [Element]) {
        self.title = title.live
        self.content = content()
    }

    /// The same screen, running `action` when a renderer shows it.
    public func onAppear(_ action: @escaping () -> Void) -> Screen {
        var screen = self
        let earlier = appear
        screen.appear = {
            earlier?()
            action()
        }
        return screen
    }

    /// The same screen, where `key` runs `action` while `condition` holds. A browser takes a
    /// plain key (`.character`) anywhere on the page but in a text field; a `.control` key is
    /// the terminal's alone (a browser keeps Ctrl-R, Ctrl-D for itself).
    public func shortcut(
        _ key: Shortcut, when condition: some LiveConvertible<Bool> = Live.constant(true),
        _ action: @escaping () -> Void
    ) -> Screen {
        var screen = self
        screen.shortcuts.append((key, condition.live, action))
        return screen
    }

    /// The same screen with its own line of key hints ("←→: switch • Enter: details • Esc: back"),
    /// shown by every layer with keys.
    public func hint(_ text: String) -> Screen {
        hint(Hint(text))
    }

    /// The same screen with its own line of key hints, in parts: a part marked
    /// ``Hint/terminalOnly(_:)`` is left out where its keys do not work (a browser's page).
    public func hint(_ parts: Hint...) -> Screen {
        var screen = self
        screen.hints = parts
        return screen
    }

    /// What the screen shows now, depth first (see ``Element/shown``).
    public var shownElements: [Element] {
        content.flatMap(\.shown)
    }

    /// Every element of the screen, depth first, the containers' children after them.
    public var allElements: [Element] {
        content.flatMap(\.everything)
    }
}

/// Builds a screen's content from a list of elements, as a SwiftUI `body` does: `if`, `if let`,
/// `switch` and `for … in` work, and each statement is one element.
@resultBuilder
public enum ScreenBuilder {
    public static func buildExpression(_ element: some ElementConvertible) -> [Element] { [element.element] }
    public static func buildExpression(_ elements: [Element]) -> [Element] { elements }
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    public static func buildEither(first part: [Element]) -> [Element] { part }
    public static func buildEither(second part: [Element]) -> [Element] { part }
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
}
