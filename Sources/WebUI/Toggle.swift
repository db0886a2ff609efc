import MVVM
import Signals

/// A checkbox with its label: a click (or Space) flips it, sending the new value on
/// ``changes``; ``isOn`` shows the value the server has.
public final class Toggle: Element {
    /// The checkbox itself (it takes the focus and the clicks).
    public let box: Element
    private var changeSubject = EventSubject<Bool>()

    public init(_ label: String, isOn: Bool = false, class className: String? = nil) {
        // Named by its label: a restart under the page gives it back (as a field's text).
        box = Element("input", ["type": "checkbox", "name": TextField.name(label)])
        super.init("label", ["class": "toggle" + (className.map { " " + $0 } ?? "")], children: [])
        setChildren([box, Label(label)])
        box.setFlag("checked", isOn)
        box.on(.change) { [weak self] event in
            guard let self, case .change(let value) = event else { return }
            self.flipped(to: value == "true")
        }
    }

    /// Whether the box is checked.
    public var isOn: Bool {
        get { box.attribute("checked") != nil }
        set { box.setFlag("checked", newValue) }
    }

    public var isEnabled: Bool {
        get { box.attribute("disabled") == nil }
        set { box.setFlag("disabled", !newValue) }
    }

    /// The value after each flip in the browser.
    public var changes: Signal<Bool, Never> { changeSubject.signal }

    private func flipped(to value: Bool) {
        guard isEnabled else { return box.restate("checked") }
        isOn = value
        changeSubject.send(value)
        // Whoever owns the value may not take it (a setting that cannot change now): the box
        // shows what the server has, not what was clicked.
        if isOn != value { box.restate("checked") }
    }
}
