import Foundation

/// The embedded catalog of people (PV-V), which ``OfflinePersonService`` answers with.
public enum PersonCatalog {
    /// A few people, with and without a salutation.
    public static let people: [Person] = [
        Person(salutation: "Dr.", firstName: "Grace", lastName: "Hopper", birthdate: date(1906, 12, 9)),
        Person(salutation: nil, firstName: "Ada", lastName: "Lovelace", birthdate: date(1815, 12, 10)),
        Person(salutation: "Prof.", firstName: "Alan", lastName: "Turing", birthdate: date(1912, 6, 23)),
        Person(salutation: "", firstName: "Unix", lastName: "Epoch", birthdate: Date(timeIntervalSince1970: 0)),
    ]

    private static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }
}
