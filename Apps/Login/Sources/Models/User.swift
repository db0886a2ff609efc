/// A signed-in user. Never holds the password.
public struct User: Sendable, Equatable {
    public let userName: String
    public let displayName: String

    public init(userName: String, displayName: String) {
        self.userName = userName
        self.displayName = displayName
    }
}

/// LG-VM2: how a login request that reached the server ended.
public enum LoginOutcome: Sendable, Equatable {
    /// Signed in.
    case success(User)
    /// The request was fine but a business rule refused it (wrong password, account needs
    /// verification); the text says what to do.
    case failure(String)
}

/// LG-VM2: the request itself failed (network, server).
public struct LoginError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
