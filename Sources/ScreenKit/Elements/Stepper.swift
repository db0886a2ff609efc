import MVVM
import Signals

/// A number in a range, in steps, two-way bound to the view model (SwiftUI's `Stepper` and,
/// with the `slider` style, `Slider`): ← → step it in a terminal (Home and End go to the ends);
/// a browser shows an `<input type=number>` (or `type=range`) whose text the server parses.
///
/// ```swift
/// Stepper("Copies", value: viewModel.copies, in: 1...99)
/// Stepper("Volume", value: viewModel.volume, in: 0...1, step: 0.1, style: .slider)
/// ```
///
/// What a person enters is clamped to the range and rounded to the nearest step from its lower
/// end; text that is not a number is refused with a message, and the value stays. A value the
/// view model sets outside the range is shown clamped (the view model's value is left alone).
public struct Stepper: ElementConvertible, Sendable {
    /// `stepper`: the number with a step down and up; `slider`: a track with a thumb.
    public enum Style: String, Sendable { case stepper, slider }

    public let label: String
    public let value: MutableProperty<Double>
    public let range: ClosedRange<Double>
    public let step: Double
    public let style: Style
    /// The decimal places of the step and the lower end: each value is rounded to them, so that
    /// three steps of 0.1 are 0.3, not 0.30000000000000004.
    private let places: Double

    /// The finest step: values are rounded to 15 decimal places, so a finer one would round away.
    public static let finestStep = 1e-15

    /// A number in `range` (finite), in steps of `step` (``finestStep`` or more, finite) from its
    /// lower end.
    public init(_ label: String, value: MutableProperty<Double>, in range: ClosedRange<Double>, step: Double = 1, style: Style = .stepper) {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "Stepper(\"\(label)\"): the range must be finite, not \(range)")
        precondition(step > 0 && step.isFinite, "Stepper(\"\(label)\"): the step must be a positive, finite number, not \(step)")
        precondition(step >= Self.finestStep, "Stepper(\"\(label)\"): the step must be at least \(Self.finestStep) (values are rounded to 15 decimal places), not \(step)")
        self.label = label
        self.value = value
        self.range = range
        self.step = step
        self.style = style
        places = Double(max(Self.decimalPlaces(of: step), Self.decimalPlaces(of: range.lowerBound)))
    }

    /// How many decimal places `number` is written with (0.25: 2, 1e-3: 3), at most 15.
    static func decimalPlaces(of number: Double) -> Int {
        var places = 0
        var scaled = abs(number)
        while places < 15, scaled != scaled.rounded() {
            places += 1
            scaled = abs(number) * Self.power(places)
        }
        return places
    }

    private static func power(_ places: Int) -> Double {
        (0..<places).reduce(1) { power, _ in power * 10 }
    }

    /// A whole number in `range`, in steps of `step`: `Stepper("Copies", value: viewModel.copies, in: 1...99)`.
    public init(_ label: String, value: MutableProperty<Int>, in range: ClosedRange<Int>, step: Int = 1, style: Style = .stepper) {
        let number = PropertyBridge.following(value, to: { Double($0) }, back: { Int(exactly: $0) })
        self.init(label, value: number, in: Double(range.lowerBound)...Double(range.upperBound), step: Double(step), style: style)
    }

    /// `number` clamped to the range and rounded to the nearest step from its lower end (a
    /// step that would pass the upper end stops at the last one inside); the lower end for a
    /// value that is not a number.
    public func clamped(_ number: Double) -> Double {
        guard !number.isNaN else { return range.lowerBound }
        let inside = min(max(number, range.lowerBound), range.upperBound)
        let steps = ((inside - range.lowerBound) / step).rounded()
        let stepped = onStep(steps)
        return stepped > range.upperBound ? onStep(steps - 1) : stepped
    }

    /// The lower end and `steps` steps, rounded to the decimal places of the step and the lower end.
    private func onStep(_ steps: Double) -> Double {
        let power = Self.power(Int(places))
        return ((range.lowerBound + steps * step) * power).rounded() / power
    }

    /// The value `steps` steps from `number` (negative: down), clamped.
    public func stepped(_ number: Double, by steps: Int) -> Double {
        clamped(clamped(number) + Double(steps) * step)
    }

    /// The number a person typed, or `nil` if it is not one (empty, letters, infinite):
    /// `" 4 "` is 4, `"1e2"` is 100; `"4,5"`, `"0x10"` and `"nan"` are not numbers.
    public static func number(in text: String) -> Double? {
        let trimmed = TypedText.trimmed(text)
        guard trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }), let number = Double(String(trimmed)), number.isFinite else { return nil }
        return number
    }

    /// What is shown of `number`: a whole number without a decimal point, "0.5" as it is.
    public static func text(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// What a person who left `text` is told: empty for a number.
    public static func message(for text: String) -> String {
        if number(in: text) != nil { return "" }
        return text.allSatisfy(\.isWhitespace) ? "Enter a number" : "\(TypedText.quoted(text)) is not a number"
    }

    /// The value shown: the view model's, clamped.
    public var shown: Live<Double> {
        let stepper = self
        return value.live.map { stepper.clamped($0) }
    }

    /// Sets the view model's value to what a person entered, clamped, if it differs.
    public func enter(_ number: Double) {
        let number = clamped(number)
        if value.value != number { value.value = number }
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let stepper = Role(rawValue: "stepper")
}

extension Stepper: ElementKind {
    public var role: Role { .stepper }
    public var names: [String] { [label] }
    /// "Copies: 3 (1–99)", or for a slider "Volume: [########------------] 0.4".
    public func plainLines(indent: String) -> [String] {
        let shown = clamped(value.value)
        switch style {
        case .stepper:
            return [indent + "\(label): \(Self.text(shown)) (\(Self.text(range.lowerBound))–\(Self.text(range.upperBound)))"]
        case .slider:
            let span = range.upperBound - range.lowerBound
            let fraction = span > 0 ? (shown - range.lowerBound) / span : 1
            return [indent + "\(label): [\(ProgressBar.bar(fraction, width: 20))] \(Self.text(shown))"]
        }
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension ValueControl where Value == Double {
    /// The control is the described stepper, as every renderer's number is: it shows the view
    /// model's value clamped to the range, and a value the person sets reaches the view model
    /// clamped and on a step.
    @discardableResult
    public func bind(to stepper: Stepper) -> any Disposable {
        let composite = CompositeDisposable()
        composite += receive(stepper.shown.signal) { [weak self] value in
            if self?.shownValue != value { self?.shownValue = value }
        }
        composite += receive(personChanges) { stepper.enter($0) }
        return composite
    }
}
