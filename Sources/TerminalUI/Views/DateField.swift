import Foundation
import ScreenKit
import Signals

/// A day, and if asked a time of day, in parts: `2026-12-04 09:30` (`yyyy-mm-dd --:--` while
/// empty). ← → choose a part, ↑ ↓ change it by one (a month or a day wraps within its span, as a
/// browser's date field does), digits type it (the next part follows once it is full), Backspace
/// or Delete clears the day (on a time part, the time); a paste is read whole by `paste` (a
/// text it refuses is said, through ``refusals``). An empty picker starts from today (the
/// day's other parts from it, a time's minute from now), inside ``range``; a day typed or
/// stepped past the range stops at its end, and ``refusals`` says so. ``dayChanges`` and
/// ``timeChanges`` carry each value the person sets.
@MainActor
public final class DateField: View {
    public var day: Day? { didSet { if day != oldValue { typed = ""; setNeedsDisplay() } } }
    public var time: TimeOfDay? { didSet { if time != oldValue { typed = ""; setNeedsDisplay() } } }
    /// The days a person may set (`nil`: any).
    public let range: ClosedRange<Day>?
    public let hasTime: Bool
    /// The part ← → move through: 0 the year, 1 the month, 2 the day, 3 the hour, 4 the minute.
    public private(set) var part = 0 { didSet { if part != oldValue { typed = ""; setNeedsDisplay() } } }
    /// Today and the time now, where an empty picker starts (the clock's, in the local time zone).
    public var now: () -> (Day, TimeOfDay) = DateField.clock
    private var typed = ""
    private let daySubject = PublishSubject<Day?, Never>()
    private let timeSubject = PublishSubject<TimeOfDay?, Never>()
    private let refusalSubject = PublishSubject<String, Never>()
    /// What a person is told of a day past the range.
    private let outOfRange: String
    /// What a pasted text is: the day and time, or what the person is told.
    private let paste: ((String) -> Result<(day: Day?, time: TimeOfDay?), ScreenKit.DatePicker.Refusal>)?

    /// A field whose day stays in `range`; a day typed or stepped past it is told `outOfRange`.
    public init(
        day: Day?, time: TimeOfDay? = nil, hasTime: Bool = false, in range: ClosedRange<Day>? = nil, outOfRange: String = "",
        paste: ((String) -> Result<(day: Day?, time: TimeOfDay?), ScreenKit.DatePicker.Refusal>)? = nil
    ) {
        self.paste = paste
        self.day = day
        self.time = time
        self.hasTime = hasTime
        self.range = range
        self.outOfRange = outOfRange
        super.init()
        heightPolicy = .fixed(1)
        widthPolicy = .fit
    }

    /// Each day the person sets (`nil`: cleared), not a change of ``day`` by code.
    public nonisolated var dayChanges: Signal<Day?, Never> { daySubject.signal }
    /// Each time the person sets (`nil`: cleared), not a change of ``time`` by code.
    public nonisolated var timeChanges: Signal<TimeOfDay?, Never> { timeSubject.signal }
    /// After each change by the person: what they are told (a day past the range stopped at its
    /// end), or empty.
    public nonisolated var refusals: Signal<String, Never> { refusalSubject.signal }

    public override var canFocus: Bool { true }

    private var parts: Int { hasTime ? 5 : 3 }
    private static let widths = [4, 2, 2, 2, 2]
    /// Where each part starts in the text.
    private static let starts = [0, 5, 8, 11, 14]

    /// The parts as shown: the typed digits of the part being typed, placeholders for an empty
    /// day or time.
    var texts: [String] {
        var texts = day.map { $0.description.split(separator: "-").map(String.init) } ?? ["yyyy", "mm", "dd"]
        if hasTime { texts += time.map { $0.description.split(separator: ":").map(String.init) } ?? ["--", "--"] }
        if !typed.isEmpty { texts[part] = typed + String(repeating: "_", count: Self.widths[part] - typed.count) }
        return texts
    }

    var text: String {
        let texts = texts
        return texts[0] + "-" + texts[1] + "-" + texts[2] + (hasTime ? " " + texts[3] + ":" + texts[4] : "")
    }

    public override func intrinsicSize(in available: Size) -> Size {
        Size(width: min(available.width, hasTime ? 16 : 10), height: 1)
    }

    public override func handle(_ key: Key) -> Bool {
        switch key {
        case .left:
            guard part > 0 else { return false }
            part -= 1
        case .right:
            guard part < parts - 1 else { return false }
            part += 1
        case .up: change(by: 1)
        case .down: change(by: -1)
        case .backspace, .delete:
            if part >= 3 {
                set(day, nil)
            } else {
                set(nil, nil)
            }
        case .character(let character) where character.isASCII && character.isNumber:
            type(character)
        case .paste(let text):
            guard let paste else { return false }
            switch paste(TypedText.cleaned(text)) {
            case .success(let (day, time)): set(day, time)
            case .failure(let refusal): refusalSubject.send(refusal.message)
            }
        default:
            return false
        }
        return true
    }

    /// The part by `delta`: the year, hour and minute within their spans, the month and the day
    /// wrapping; the day kept in its month and the range.
    private func change(by delta: Int) {
        let (today, timeNow) = now()
        if part < 3 {
            guard let day else { return set(start(today), time) }
            var (year, month, dayOfMonth) = (day.year, day.month, day.day)
            switch part {
            case 0: year = min(max(year + delta, Day.years.lowerBound), Day.years.upperBound)
            case 1: month = (month - 1 + delta + 12) % 12 + 1
            default:
                let count = Day.days(inMonth: month, of: year)
                dayOfMonth = (dayOfMonth - 1 + delta + count) % count + 1
            }
            set(make(year, month, dayOfMonth), time)
        } else {
            let time = time ?? timeNow
            guard self.time != nil else { return set(day ?? start(today), time) }
            let hour = part == 3 ? (time.hour + delta + 24) % 24 : time.hour
            let minute = part == 4 ? (time.minute + delta + 60) % 60 : time.minute
            set(day ?? start(today), TimeOfDay(hour: hour, minute: minute))
        }
    }

    /// A digit into the part: once the part is full (or no further digit could follow: a month
    /// from 2, a day from 4), it is set and the next part follows.
    private func type(_ digit: Character) {
        typed.append(digit)
        let value = Int(typed) ?? 0
        let full = typed.count == Self.widths[part] || value * 10 > [9999, 12, 31, 23, 59][part]
        guard full else { return setNeedsDisplay() }
        let (today, timeNow) = now()
        let base = day ?? start(today)
        if part < 3 {
            var parts = [base.year, base.month, base.day]
            parts[part] = max(value, 1)
            set(make(parts[0], min(parts[1], 12), parts[2]), time)
        } else {
            var parts = [(time ?? timeNow).hour, (time ?? timeNow).minute]
            parts[part - 3] = min(value, part == 3 ? 23 : 59)
            set(base, TimeOfDay(hour: parts[0], minute: parts[1]))
        }
        typed = ""
        if part < parts - 1 { part += 1 }
        setNeedsDisplay()
    }

    /// The day of `year`, `month` and `day` (the month's last for one past it), inside the range.
    private func make(_ year: Int, _ month: Int, _ day: Int) -> Day {
        let year = min(max(year, Day.years.lowerBound), Day.years.upperBound)
        // SAFETY (of the `!`): a year in `Day.years`, a month 1 through 12 and a day 1 through
        // its month's count make a day.
        let made = Day(year: year, month: month, day: min(max(day, 1), Day.days(inMonth: month, of: year)))!
        let inside = start(made)
        stopped = inside != made
        return inside
    }

    /// Whether the last day made stopped at an end of the range.
    private var stopped = false

    /// `day` inside the range.
    private func start(_ day: Day) -> Day {
        guard let range else { return day }
        return min(max(day, range.lowerBound), range.upperBound)
    }

    /// Shows and sends what the person set: each value that changed, and whether a day stopped
    /// at an end of the range.
    private func set(_ newDay: Day?, _ newTime: TimeOfDay?) {
        refusalSubject.send(stopped ? outOfRange : "")
        stopped = false
        let (oldDay, oldTime) = (day, time)
        day = newDay
        time = hasTime ? newTime : nil
        if day != oldDay { daySubject.send(day) }
        if time != oldTime { timeSubject.send(time) }
        setNeedsDisplay()
    }

    /// At the part being typed.
    public override var cursorPosition: Point? {
        Point(x: frame.x + min(Self.starts[part] + typed.count, max(0, frame.width - 1)), y: frame.y)
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let texts = texts
        let separators = ["-", "-", " ", ":"]
        for index in 0..<parts {
            let style = isFocused && index == part ? Style.reverse : (day == nil && index < 3) || (time == nil && index >= 3) ? Style(dim: true) : .plain
            buffer.write(texts[index], x: frame.x + Self.starts[index], y: frame.y, style: style, clip: frame)
            if index < parts - 1 {
                buffer.write(separators[index], x: frame.x + Self.starts[index] + Self.widths[index], y: frame.y, style: Style(dim: true), clip: frame)
            }
        }
    }

    /// Today and the time now in the local time zone.
    nonisolated static func clock() -> (Day, TimeOfDay) {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: Date())
        let day = Day(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1) ?? Day.first
        // SAFETY (of the `!`): midnight is a time.
        return (day, TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0) ?? TimeOfDay(hour: 0, minute: 0)!)
    }
}
