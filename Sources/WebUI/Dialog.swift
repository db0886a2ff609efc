import MVVM
import Signals

/// A dialog above the page, with one button.
public final class Dialog: Element {
    public let titleText: String
    public let message: String
    public let button: Button
    var onDismiss: (() -> Void)?
    var onCancel: (() -> Void)?
    /// The navigation depth of the page it was shown over: it goes with that page.
    var depth = 1

    init(title: String, message: String, button title2: String) {
        titleText = title
        self.message = message
        button = Button(title2, class: "button primary")
        super.init("div", ["class": "dialog", "role": "alertdialog", "aria-modal": "true"], children: [
            Stack(.vertical, class: "dialog-box", [Label(title, tag: "h2"), Label(message, tag: "p"), button]),
        ])
        button.onPress = { [weak self] in self?.onDismiss?() }
    }

    /// Dismisses the dialog as its button does.
    public func dismiss() {
        onDismiss?()
    }

    /// Closes the dialog without its button's action (Esc).
    public func cancel() {
        onCancel?()
    }

    /// The page sends a click on the dialog itself for Esc: a cancel.
    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard event == .click, target === self else { return false }
        cancel()
        return true
    }
}
