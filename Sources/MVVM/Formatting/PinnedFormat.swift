import Foundation

/// Formatting pinned to a locale and time zone, so what a view model outputs does not depend on
/// the machine it runs on: English and UTC unless asked otherwise.
public enum PinnedFormat {
    public static let english = Locale(identifier: "en_US_POSIX")
    public static let utc = TimeZone(identifier: "UTC")!

    /// An integer with a grouping separator: 1973 → "1,973".
    public static func grouped(_ value: Int) -> String {
        decimal(Decimal(value), fractionDigits: 0)
    }

    /// A decimal with a grouping separator and exactly `fractionDigits` digits: "1,299.00".
    public static func decimal(_ value: Decimal, fractionDigits: Int) -> String {
        let formatter = NumberFormatter()
        formatter.locale = english
        formatter.numberStyle = .decimal
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        formatter.groupingSize = 3
        formatter.decimalSeparator = "."
        formatter.minimumFractionDigits = fractionDigits
        formatter.maximumFractionDigits = fractionDigits
        return formatter.string(from: value as NSDecimalNumber) ?? "\(value)"
    }

    /// A date with an explicit pattern ("EEEE MMMM d, yyyy").
    public static func date(_ date: Date, format: String, locale: Locale = english, timeZone: TimeZone = utc) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    /// A date in a style ("Mar 8, 2019" for `.medium` in English).
    public static func date(_ date: Date, style: DateFormatter.Style, locale: Locale = Locale(identifier: "en_US"), timeZone: TimeZone = utc) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateStyle = style
        formatter.timeStyle = .none
        return formatter.string(from: date)
    }

    /// Parses a date with an explicit pattern, in English and UTC; `nil` if it does not match.
    public static func parseDate(_ text: String, format: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = english
        formatter.timeZone = utc
        formatter.dateFormat = format
        return formatter.date(from: text)
    }
}
