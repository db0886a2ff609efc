import Foundation
import MVVM

/// PV-VM1: what the person screen shows, formatted.
///
/// `nameText` is "Dr. first last" with a non-empty salutation and "first last" without one;
/// `birthdateText` reads like "Thursday January 1, 1970". Dates are formatted in English and
/// UTC unless a locale and time zone are given (the user's own, if the app asks for them).
public final class PersonViewModel: Sendable {
    public let person: Person
    public let nameText: String
    public let birthdateText: String

    public init(person: Person, locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.person = person
        if let salutation = person.salutation, !salutation.isEmpty {
            nameText = "\(salutation) \(person.firstName) \(person.lastName)"
        } else {
            nameText = "\(person.firstName) \(person.lastName)"
        }
        // "Thursday January 1, 1970" (a pattern, so no locale reorders it); one style per view
        // model, made from its locale and time zone.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let style = Date.VerbatimFormatStyle(
            format: "\(weekday: .wide) \(month: .wide) \(day: .defaultDigits), \(year: .defaultDigits)",
            locale: locale, timeZone: timeZone, calendar: calendar
        )
        birthdateText = style.format(person.birthdate)
    }
}
