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

    public var presses: Signal<Void, Never> { pressSubject.signal }

    public var isEnabled: Bool {
        get { attribute("disabled") == nil }
        set { setFlag("disabled", !newValue) }
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
