import Foundation
import PersonProfile
import Testing

/// PV-T: the three tests of seed 001, exactly as stated there (its Specta spec, in Swift).
@Suite struct PersonViewModelTests {
    let salutation = "Dr."
    let firstName = "first"
    let lastName = "last"
    let birthdate = Date(timeIntervalSince1970: 0)

    /// PV-T, PV-VM1: "should use the salutation available."
    @Test func shouldUseTheSalutationAvailable() {
        let person = Person(salutation: salutation, firstName: firstName, lastName: lastName, birthdate: birthdate)
        let viewModel = PersonViewModel(person: person)
        #expect(viewModel.nameText == "Dr. first last")
    }

    /// PV-T, PV-VM1: "should not use an unavailable salutation."
    @Test func shouldNotUseAnUnavailableSalutation() {
        let person = Person(salutation: nil, firstName: firstName, lastName: lastName, birthdate: birthdate)
        let viewModel = PersonViewModel(person: person)
        #expect(viewModel.nameText == "first last")
    }

    /// PV-T, PV-VM1: "should use the correct date format."
    @Test func shouldUseTheCorrectDateFormat() {
        let person = Person(salutation: nil, firstName: firstName, lastName: lastName, birthdate: birthdate)
        let viewModel = PersonViewModel(person: person)
        #expect(viewModel.birthdateText == "Thursday January 1, 1970")
    }

    /// PV-VM1: an empty salutation counts as none.
    @Test func anEmptySalutationIsNotShown() {
        let person = Person(salutation: "", firstName: firstName, lastName: lastName, birthdate: birthdate)
        #expect(PersonViewModel(person: person).nameText == "first last")
    }

    /// PV-VM1: the user's own time zone can be asked for; the default stays UTC.
    @Test func timeZoneIsPinnedUnlessAsked() {
        let person = Person(salutation: nil, firstName: firstName, lastName: lastName, birthdate: birthdate)
        let newYork = PersonViewModel(person: person, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.birthdateText == "Wednesday December 31, 1969")
    }

    /// PV-V: the embedded catalog has people for the screen, formatted.
    @Test func catalogPeopleFormat() {
        let texts = PersonCatalog.people.map { PersonViewModel(person: $0) }.map { "\($0.nameText) — \($0.birthdateText)" }
        #expect(texts.contains("Dr. Grace Hopper — Sunday December 9, 1906"))
        #expect(texts.contains("Ada Lovelace — Sunday December 10, 1815"))
    }
}

/// PV-M1: the person model holds salutation (optional), first and last name and birthdate, and
/// is a value: copies never change each other.
@Suite struct PersonModelTests {
    @Test func personIsAnImmutableValue() {
        let epoch = Date(timeIntervalSince1970: 0)
        let person = Person(salutation: nil, firstName: "first", lastName: "last", birthdate: epoch)
        let copy = person
        #expect(copy == person)
        #expect(person.salutation == nil)
        #expect(Person(salutation: "Dr.", firstName: "first", lastName: "last", birthdate: epoch) != person)
    }
}
