import MVVM
import Signals

/// A number in a range (`<input type=number>`, or `type=range` for a slider): the page's text is
/// parsed by the server, whatever the browser sent. A number is clamped (``valueChanges``
/// carries it; the page is shown the clamped value when it shows another); text that is not a
/// number is refused (``refusedTexts`` carries it) and the page shown the server's value again.
/// Setting ``value`` from the server moves the page's.
public final class NumberField: Element {
    private var changes = EventSubject<Double>()
    private var refusals = EventSubject<String>()
    private var current: Double
    private let clamp: (Double) -> Double
    private let parse: (String) -> Double?
    private let format: (Double) -> String

    /// A field for `value` in `range`, in steps of `step`, named `label`; `parse` reads the page's
    /// text (`nil`: not a number), `clamp` puts a number in the range and on a step, `format`
    /// writes a number for the page.
    public init(
        value: Double, in range: ClosedRange<Double>, step: Double, isSlider: Bool = false, label: String,
        parse: @escaping (String) -> Double?, clamp: @escaping (Double) -> Double, format: @escaping (Double) -> String
    ) {
        current = value
        self.parse = parse
        self.clamp = clamp
        self.format = format
        super.init("input", [
            "type": isSlider ? "range" : "number", "class": isSlider ? "slider" : "number",
            "min": format(range.lowerBound), "max": format(range.upperBound), "step": format(step),
            "value": format(value), "aria-label": label, "name": TextField.name(label),
            "data-mvvm-on": "change", "autocomplete": "off",
        ])
    }

    /// The number shown.
    public var value: Double {
        get { current }
        set {
            guard newValue != current else { return }
            current = newValue
            show()
        }
    }

    /// Each number the person sets, clamped.
    public var valueChanges: Signal<Double, Never> { changes.signal }
    /// Each text the person left that is not a number.
    public var refusedTexts: Signal<String, Never> { refusals.signal }

    /// The page (and a first render) shows the value the server has.
    private func show() {
        document?.muted += 1
        setAttribute("value", format(current))
        document?.muted -= 1
        if let document { document.record(.value(id, format(current)), for: self) }
    }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard target === self else { return false }
        switch event {
        case .input(let text):
            // While the person types, only a number already in the range and on a step is taken
            // ("1" on the way to "15" with a minimum of 5 waits for the change at the end).
            if let number = parse(text), clamp(number) == number { take(number) }
            return true
        case .change(let text):
            guard let number = parse(text) else {
                refusals.send(text)
                show()
                return true
            }
            let clamped = clamp(number)
            take(clamped)
            if format(clamped) != text { show() }
            return true
        default:
            return false
        }
    }

    private func take(_ number: Double) {
        guard number != current else { return }
        current = number
        document?.muted += 1
        setAttribute("value", format(number))
        document?.muted -= 1
        changes.send(number)
    }
}
