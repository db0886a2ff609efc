#if WebServer
import Store

/// A person with an account: its id in the store, and the email they sign in with (lower-cased).
public struct AccountUser: Sendable, Hashable, CustomStringConvertible {
    public let id: Int64
    public let email: String

    public init(id: Int64, email: String) {
        self.id = id
        self.email = email
    }

    public var description: String { email }
}

/// Why an account could not do what was asked, in words a screen can show. An unknown email and
/// a wrong password are the same answer (``incorrect``), in the same time.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The email or the password is wrong (which of them is not said).
    case incorrect
    /// Too many failed sign-ins: from this address, or for this account from browsers it has not
    /// been used in; the seconds until it may be tried again.
    case throttled(retryAfter: Int)
    /// Sign-up: an account with this email exists.
    case emailTaken
    /// The password was right, but the account needs verification first.
    case unverified
    /// The password was right, but the account is disabled.
    case disabled
    /// What was typed breaks a rule (`field` is `email` or `password`; `message` says which).
    case invalid(field: String, message: String)
    /// This tab is not signed in (sign out, or change a password, without a user).
    case notSignedIn
    /// Too many passwords are being hashed at once: try again in a moment.
    case busy
    /// The database (or hashing) could not do it; nothing was changed unless it says so.
    case unavailable(String)

    public var message: String {
        switch self {
        case .incorrect: "The email or password is incorrect."
        case .throttled(let seconds):
            "Too many failed attempts. Try again in \(seconds < 60 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes")."
        case .emailTaken: "An account with this email already exists. Sign in instead."
        case .unverified: "This account needs verification. Check your email for the link."
        case .disabled: "This account is disabled."
        case .invalid(_, let message): message
        case .notSignedIn: "You are not signed in."
        case .busy: "The server is busy signing people in. Try again in a moment."
        case .unavailable(let why): "Accounts are unavailable right now (\(why))."
        }
    }

    public var description: String { message }

    init(_ error: StoreError) {
        switch error {
        case .maybeSaved(let why): self = .unavailable("the database did not confirm it: \(why)")
        default: self = .unavailable(error.message)
        }
    }
}
#endif
