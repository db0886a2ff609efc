import MVVM
import Signals

/// A button: bound to an `Action` (enabled while the action is, busy while it runs, a press
/// applies it) or running a closure (Back).
public struct Button: ElementConvertible {
    public let title: Live<String>
    public let isEnabled: Live<Bool>
    public let isBusy: Live<Bool>
    /// Applies the action, or runs the closure. Renderers call it only while enabled and not busy.
    public let press: () -> Void

    /// A button that applies `action` with `input()` when pressed.
    public init<Input: Sendable, Output: Sendable, Failure: Error>(
        _ title: String, action: Action<Input, Output, Failure>, input: @escaping @Sendable () -> Input
    ) {
        self.title = .constant(title)
        isEnabled = action.isEnabled.live
        // An action that queues takes a press while it runs: the button is not busy then.
        isBusy = TextField.busy(while: action)
        press = { action.execute(input()) }
    }

    /// A button that applies an action that takes no input.
    public init<Output: Sendable, Failure: Error>(_ title: String, action: Action<Void, Output, Failure>) {
        self.init(title, action: action, input: {})
    }

    /// A button with every state given (a form's submit).
    init(title: Live<String>, isEnabled: Live<Bool>, isBusy: Live<Bool>, press: @escaping () -> Void) {
        self.title = title
        self.isEnabled = isEnabled
        self.isBusy = isBusy
        self.press = press
    }

    /// A button that runs `press`, enabled while `isEnabled` is `true`.
    public init(_ title: String, isEnabled: some LiveConvertible<Bool> = Live.constant(true), press: @escaping () -> Void) {
        self.title = .constant(title)
        self.isEnabled = isEnabled.live
        isBusy = .constant(false)
        self.press = press
    }

    /// The query items pressing the button sets in the screen's address (an empty value
    /// removes one); `nil`: the button does not change the address. A browser draws such a
    /// button as a link to that address (the current one, with these items), so it can be
    /// opened in a new tab or bookmarked; a plain click still just presses it.
    public private(set) var linkQuery: [String: String]?

    /// The same button, drawn by a browser as a link to the screen's address with `query` set:
    /// a filter (`["filter": "active"]`) whose press changes the address the same way.
    public func linking(query: [String: String]) -> Button {
        var button = self
        button.linkQuery = query
        return button
    }

    /// The path, under the screen's address, of the screen pressing the button opens; `nil`:
    /// the button opens none (or the layer has no addresses).
    public private(set) var linkPath: [String]?

    /// The same button, drawn by a browser as a link to the screen its press opens: one of the
    /// app's own, whose address is this screen's with `path` added (as a list's
    /// ``List/linkingRows(to:)``). A plain click still just presses it; a new tab, a copied
    /// link or a bookmark opens that screen at its address. A terminal and plain text draw the
    /// button as any other.
    ///
    /// ```swift
    /// Button("Settings") { viewModel.openSettings() }.linking(path: ["settings"])   // /person → /person/settings
    /// ```
    public func linking(path: [String]) -> Button {
        var button = self
        button.linkPath = path
        return button
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let button = Role(rawValue: "button")
}

extension Button: ElementKind {
    public var role: Role { .button }
    public var names: [String] { [title.value] }
    public func plainLines(indent: String) -> [String] { [indent + plainLine] }
    /// "[Title]", with "(busy)" or "(disabled)".
    var plainLine: String {
        let state = isBusy.value ? " (busy)" : isEnabled.value ? "" : " (disabled)"
        return "[\(title.value)]" + state
    }
    public var isWorking: Bool { isBusy.value }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension ActionControl {
    /// The control follows the described button, as every renderer's button does: enabled and
    /// busy with it, and a press runs it (its title is the renderer's to draw). A fixed state is
    /// set once, without a subscription (a tab has many buttons).
    @discardableResult
    public func bind(to button: Button) -> any Disposable {
        let composite = CompositeDisposable()
        if button.isEnabled.isConstant {
            isEnabled = button.isEnabled.value
        } else {
            composite += receive(button.isEnabled.signal) { [weak self] in self?.isEnabled = $0 }
        }
        if button.isBusy.isConstant {
            isBusy = button.isBusy.value
        } else {
            composite += receive(button.isBusy.signal) { [weak self] in self?.isBusy = $0 }
        }
        onPress(button.press)
        return composite
    }
}
