/// A day of the calendar (the proleptic Gregorian one, years 1 through 9999), with no time and
/// no time zone: what a person means by "due on the 4th", and what a browser's
/// `<input type=date>` sends ("2026-12-04").
///
/// ```swift
/// let due = Day(year: 2026, month: 12, day: 4)      // nil for a day that does not exist
/// Day("2026-02-29")                                  // nil: 2026 is no leap year
/// Day("2028-02-29")?.adding(days: 1)?.description    // "2028-03-01"
/// ```
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The years a day may be in: those a browser's date field and ISO 8601's four digits write.
    public static let years = 1...9999
    public static let first = Day(checkedYear: 1, month: 1, day: 1)
    public static let last = Day(checkedYear: 9999, month: 12, day: 31)

    /// The day, or `nil` if there is no such day (a month past 12, the 30th of February, the
    /// 29th in a year that is not a leap year, a year outside ``years``).
    public init?(year: Int, month: Int, day: Int) {
        guard Self.years.contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day) else { return nil }
        self.init(checkedYear: year, month: month, day: day)
    }

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `text` writes as ISO 8601 does, `YYYY-MM-DD` (four digits, two, two; spaces at
    /// either end ignored), or `nil`: "2026-12-04" is a day; "2026-12-4", "04/12/2026",
    /// "2026-02-30" and "+2026-12-04" are not.
    public init?(_ text: String) {
        let parts = TypedText.trimmed(text).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Self.digits(parts[0]), let month = Self.digits(parts[1]), let day = Self.digits(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`, as a browser's date field takes it.
    public var description: String {
        Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
    }

    /// How many days `month` (1 through 12) of `year` has.
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether `year` has a 29th of February.
    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The day `days` days on (negative: before), or `nil` past the first or the last day.
    public func adding(days: Int) -> Day? {
        let (sum, overflow) = ordinal.addingReportingOverflow(days)
        guard !overflow, (Self.first.ordinal...Self.last.ordinal).contains(sum) else { return nil }
        return Day(ordinal: sum)
    }

    /// The weekday, 1 (Monday) through 7 (Sunday), as ISO 8601 numbers them.
    public var weekday: Int {
        // 0001-01-01 was a Monday.
        ordinal % 7 + 1
    }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days since 0001-01-01 (which is 0).
    var ordinal: Int {
        // Howard Hinnant's days_from_civil, from a year that starts in March.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 306
    }

    private init(ordinal: Int) {
        let z = ordinal + 306
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        self.init(checkedYear: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The number an ASCII digit string writes, or `nil` for any other character.
    static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return text.reduce(0) { $0 * 10 + Int($1.asciiValue! - 48) }
    }

    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A time of day to the minute, with no day and no time zone: what a browser's
/// `<input type=time>` sends ("09:30").
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    /// The time, or `nil` for an hour outside 0 through 23 or a minute outside 0 through 59.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// The time `text` writes as `HH:MM` (two digits each; seconds, `HH:MM:SS`, as a browser
    /// may send them, are dropped), or `nil`: "09:30" is a time; "9:30", "24:00" and "09:60"
    /// are not.
    public init?(_ text: String) {
        let parts = TypedText.trimmed(text).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 }),
              let hour = Day.digits(parts[0]), let minute = Day.digits(parts[1]),
              parts.count == 2 || Day.digits(parts[2]).map({ $0 <= 59 }) == true else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// `HH:MM`, as a browser's time field takes it.
    public var description: String { Day.padded(hour, 2) + ":" + Day.padded(minute, 2) }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
    }
}
