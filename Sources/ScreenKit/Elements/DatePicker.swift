import MVVM
import Signals

/// A day, and if the app asks a time of day, two-way bound to the view model (SwiftUI's
/// `DatePicker`): a terminal shows `2026-12-04 09:30` whose parts ← → choose and ↑ ↓ (or digits)
/// change; a browser shows `<input type=date>` (and `type=time`), and the server parses and
/// checks whatever the page sent.
///
/// ```swift
/// DatePicker("Due", day: viewModel.due, in: Day(year: 2026, month: 1, day: 1)!...Day(year: 2027, month: 12, day: 31)!)
/// DatePicker("Starts", day: viewModel.startDay, time: viewModel.startTime).message(viewModel.startMessage)
/// ```
///
/// Either may be empty (`nil`: no day chosen; a person clears it with Backspace in a terminal,
/// the field's clear in a browser). A text that is no day (`YYYY-MM-DD`), or a day outside
/// the range, is refused with a message, and the value stays. The view model's own message
/// ("Choose a day") shows once the person used the picker or tried to submit its ``Form``.
public struct DatePicker: ElementConvertible {
    public let label: String
    public let day: MutableProperty<Day?>
    /// The time of day, if the picker has one.
    public let time: MutableProperty<TimeOfDay?>?
    /// The days a person may choose (`nil`: any).
    public let range: ClosedRange<Day>?
    /// What the view model finds wrong with the choice (empty while nothing is); `nil`: no message.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn picker (see ``FieldUse``).
    public let use: FieldUse

    public init(_ label: String, day: MutableProperty<Day?>, in range: ClosedRange<Day>? = nil, time: MutableProperty<TimeOfDay?>? = nil) {
        self.label = label
        self.day = day
        self.range = range
        self.time = time
        use = FieldUse()
    }

    /// The picker with a message of its own, shown under it once the person has used it, as a
    /// field's (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> DatePicker {
        var picker = self
        picker.message = message.live
        return picker
    }

    /// The message shown now: the view model's, once the picker is used; empty before.
    public var shownMessage: Live<String> { use.shown(message) }

    /// What a person's `text` for the day is: `.success` with the day (`nil` for an empty
    /// text: the day cleared), or `.failure` with what they are told.
    public func day(from text: String) -> Result<Day?, Refusal> {
        if TypedText.trimmed(text).isEmpty { return .success(nil) }
        guard let day = Day(text) else { return .failure(Refusal("\(TypedText.quoted(text)) is not a day (YYYY-MM-DD)")) }
        if let range, !range.contains(day), let outOfRange { return .failure(outOfRange) }
        return .success(day)
    }

    /// What a person's whole `text` is, typed or pasted in one piece: a day, "2026-12-04", and
    /// for a picker with a time the time after a space, "2026-12-04 09:30" (an empty text clears
    /// both); `.failure` with what they are told, for the first part refused.
    public func entry(from text: String) -> Result<(day: Day?, time: TimeOfDay?), Refusal> {
        // Without a time the whole text is the day ("2026-07-04 09:30" is then refused as no day).
        let parts = time == nil ? [text] : TypedText.trimmed(text).split(separator: " ", maxSplits: 1).map(String.init)
        let day: Day?
        switch self.day(from: parts.first ?? "") {
        case .success(let taken): day = taken
        case .failure(let refusal): return .failure(refusal)
        }
        switch self.time(from: parts.count > 1 ? parts[1] : "") {
        case .success(let time): return .success((day, time))
        case .failure(let refusal): return .failure(refusal)
        }
    }

    /// What a person is told of a day outside the range ("Choose a day from 2026-01-01 to
    /// 2026-12-31"); `nil` without a range.
    public var outOfRange: Refusal? {
        range.map { Refusal("Choose a day from \($0.lowerBound) to \($0.upperBound)") }
    }

    /// What a person's `text` for the time is, as ``day(from:)`` says it for the day.
    public func time(from text: String) -> Result<TimeOfDay?, Refusal> {
        if TypedText.trimmed(text).isEmpty { return .success(nil) }
        guard let time = TimeOfDay(text) else { return .failure(Refusal("\(TypedText.quoted(text)) is not a time (HH:MM)")) }
        return .success(time)
    }

    /// What a person is told of a text the picker refuses.
    public struct Refusal: Error, Equatable, Sendable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    /// `day` kept inside the range (the nearest end for one outside it).
    public func clamped(_ day: Day) -> Day {
        guard let range else { return day }
        return min(max(day, range.lowerBound), range.upperBound)
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let datePicker = Role(rawValue: "datePicker")
}

extension DatePicker: ElementKind {
    public var role: Role { .datePicker }
    public var names: [String] { [label] }
    /// "Due: 2026-12-04 09:30" ("(no day)" while none is chosen, "--:--" for no time); under it
    /// "  ! message" while its message shows.
    public func plainLines(indent: String) -> [String] {
        var shown = day.value?.description ?? "(no day)"
        if let time { shown += " " + (time.value?.description ?? "--:--") }
        var lines = [indent + "\(label): \(shown)"]
        let message = shownMessage.value
        if !message.isEmpty { lines.append(indent + "  ! " + message) }
        return lines
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension DatePicker: FormControl {}

/// A renderer's date control: the day and time it shows, and the person's changes of each.
/// `bind(to:)` makes it the described ``DatePicker``, as every renderer's is.
public protocol DateControl: BindableControl {
    var shownDay: Day? { get set }
    var shownTime: TimeOfDay? { get set }
    /// Each day the person sets (`nil`: cleared), not those code set.
    var dayChanges: Signal<Day?, Never> { get }
    /// Each time of day the person sets (`nil`: cleared), not those code set.
    var timeChanges: Signal<TimeOfDay?, Never> { get }
    /// After each entry by the person: what they are told of it (a text that is no day, a day
    /// past the range), or empty once a value is taken.
    var refusals: Signal<String, Never> { get }
}

extension DateControl {
    /// The control is the described picker: its day and time (if it has one) bound both ways,
    /// and used (so its message may show) from the person's first change.
    @discardableResult
    public func bind(to picker: DatePicker) -> any Disposable {
        let composite = CompositeDisposable()
        composite += picker.day.bindTwoWay(self, \.shownDay, changes: dayChanges)
        if let time = picker.time {
            composite += time.bindTwoWay(self, \.shownTime, changes: timeChanges)
        }
        if picker.message != nil {
            let use = picker.use
            let changes = Signal.merge([dayChanges.map { _ in () }, timeChanges.map { _ in () }])
            composite += receive(changes) { _ in use.markUsed() }
        }
        return composite
    }

    /// What the control shows under itself for `picker`: what it last refused, else the view
    /// model's own message once the picker is used. One message for the day and the time.
    public func message(of picker: DatePicker) -> Live<String> {
        let refused = MutableProperty("")
        receive(refusals) { refused.value = $0 }
        return refused.live.combine(picker.shownMessage) { refused, own in refused.isEmpty ? own : refused }
    }
}
