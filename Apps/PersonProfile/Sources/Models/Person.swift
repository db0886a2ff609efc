import Foundation

/// PV-M1: a person, immutable.
public struct Person: Sendable, Equatable {
    public let salutation: String?
    public let firstName: String
    public let lastName: String
    public let birthdate: Date

    public init(salutation: String?, firstName: String, lastName: String, birthdate: Date) {
        self.salutation = salutation
        self.firstName = firstName
        self.lastName = lastName
        self.birthdate = birthdate
    }
}

/// Why the people could not be loaded; `message` is what the screen shows.
public struct PersonError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
