import MVVM

/// PV-V: one person's detail screen, opened from the browser: the name (its title), each field
/// of the person, and Back.
public final class PersonDetailViewModel: Sendable {
    /// What ``salutationText`` says for a person without one.
    public static let noSalutation = "—"

    /// The person, formatted (PV-VM1).
    public let person: PersonViewModel
    /// The person's name, "Dr. first last" or "first last".
    public let title: String
    public let nameText: String
    /// "Thursday January 1, 1970".
    public let birthdateText: String
    /// The salutation, or ``noSalutation`` when there is none (or it is empty).
    public let salutationText: String
    public let firstNameText: String
    public let lastNameText: String
    /// The person's place in the browser's list (their address, `/1`).
    public let index: Int
    private let navigator: any NavigationService

    public init(person: PersonViewModel, index: Int = 0, navigator: any NavigationService) {
        self.person = person
        self.index = index
        self.navigator = navigator
        title = person.nameText
        nameText = person.nameText
        birthdateText = person.birthdateText
        let salutation = person.person.salutation ?? ""
        salutationText = salutation.isEmpty ? Self.noSalutation : salutation
        firstNameText = person.person.firstName
        lastNameText = person.person.lastName
    }

    /// Goes back to the people.
    public func back() {
        navigator.pop()
    }
}
