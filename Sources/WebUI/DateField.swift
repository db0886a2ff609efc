import MVVM
import ScreenKit
import Signals

/// A day (`<input type=date>`) and, if asked, a time of day (`<input type=time>`), each named by
/// the label. The server parses and checks whatever the page sends: a text the `parseDay` or
/// `parseTime` closure refuses arrives as ``refusals`` (what the person is told) and the page
/// is shown the value again; a value taken arrives as ``dayChanges`` or ``timeChanges``.
public final class DateField: Element {
    /// The day's input.
    public let dayInput: Element
    /// The time's input, if the field has one.
    public let timeInput: Element?
    private let parseDay: (String) -> Result<Day?, ScreenKit.DatePicker.Refusal>
    private let parseTime: (String) -> Result<TimeOfDay?, ScreenKit.DatePicker.Refusal>
    private var daySubject = EventSubject<Day?>()
    private var timeSubject = EventSubject<TimeOfDay?>()
    private var refusalSubject = EventSubject<String>()
    private var currentDay: Day?
    private var currentTime: TimeOfDay?

    public init(
        day: Day?, time: TimeOfDay?, hasTime: Bool, in range: ClosedRange<Day>?, label: String,
        parseDay: @escaping (String) -> Result<Day?, ScreenKit.DatePicker.Refusal>,
        parseTime: @escaping (String) -> Result<TimeOfDay?, ScreenKit.DatePicker.Refusal>
    ) {
        currentDay = day
        currentTime = time
        self.parseDay = parseDay
        self.parseTime = parseTime
        var attributes = [
            "type": "date", "class": "input day", "name": TextField.name(label), "aria-label": label,
            "value": day?.description ?? "", "data-mvvm-on": "change", "autocomplete": "off",
        ]
        if let range {
            attributes["min"] = range.lowerBound.description
            attributes["max"] = range.upperBound.description
        }
        dayInput = Element("input", attributes)
        timeInput = hasTime
            ? Element("input", [
                "type": "time", "class": "input time", "name": TextField.name(label + " time"), "aria-label": label + ", time",
                "value": time?.description ?? "", "data-mvvm-on": "change", "autocomplete": "off",
            ])
            : nil
        super.init("span", ["class": "date-field"], children: [])
        setChildren([dayInput] + (timeInput.map { [$0] } ?? []))
    }

    /// The day shown.
    public var day: Day? {
        get { currentDay }
        set {
            guard newValue != currentDay else { return }
            currentDay = newValue
            show(dayInput, newValue?.description ?? "")
        }
    }

    /// The time shown.
    public var time: TimeOfDay? {
        get { currentTime }
        set {
            guard newValue != currentTime, let timeInput else { return }
            currentTime = newValue
            show(timeInput, newValue?.description ?? "")
        }
    }

    /// Each day the person sets (`nil`: cleared).
    public var dayChanges: Signal<Day?, Never> { daySubject.signal }
    /// Each time the person sets (`nil`: cleared).
    public var timeChanges: Signal<TimeOfDay?, Never> { timeSubject.signal }
    /// What the person is told of each text refused; empty once a value is taken.
    public var refusals: Signal<String, Never> { refusalSubject.signal }

    /// What the person left in `input` (the day's or the time's): taken if `parse` takes it (and
    /// sent, if it changed), otherwise refused, and the page shown the value again.
    private func entered<Value: Equatable & CustomStringConvertible>(
        _ text: String, into input: Element, parse: (String) -> Result<Value?, ScreenKit.DatePicker.Refusal>,
        current: ReferenceWritableKeyPath<DateField, Value?>, send: (Value?) -> Void
    ) {
        switch parse(text) {
        case .success(let value):
            refusalSubject.send("")
            guard value != self[keyPath: current] else { return }
            self[keyPath: current] = value
            keep(input, value?.description ?? "")
            send(value)
        case .failure(let refusal):
            refusalSubject.send(refusal.message)
            show(input, self[keyPath: current]?.description ?? "")
        }
    }

    /// The page shows `text` already (the person left it): the HTML follows, with no patch.
    private func keep(_ input: Element, _ text: String) {
        document?.muted += 1
        input.setAttribute("value", text)
        document?.muted -= 1
    }

    private func show(_ input: Element, _ text: String) {
        document?.muted += 1
        input.setAttribute("value", text)
        document?.muted -= 1
        if let document { document.record(.value(input.id, text), for: input) }
    }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        let text: String
        switch event {
        case .input(let value), .change(let value): text = value
        default: return false
        }
        if target === dayInput {
            entered(text, into: dayInput, parse: parseDay, current: \.currentDay) { self.daySubject.send($0) }
            return true
        }
        if let timeInput, target === timeInput {
            entered(text, into: timeInput, parse: parseTime, current: \.currentTime) { self.timeSubject.send($0) }
            return true
        }
        return false
    }
}

extension DateField: DateControl {
    public var shownDay: Day? {
        get { day }
        set { day = newValue }
    }
    public var shownTime: TimeOfDay? {
        get { time }
        set { time = newValue }
    }
}
