/// The person a tab's page was opened for, as the server's accounts found them from the
/// browser's cookie: the sign-in's session id, the user's id and email. A tab's sign-in is fixed
/// for its life: signing in or out loads the page anew (``Document/handOffSignIn(_:then:)``,
/// ``Document/signedOut()``).
public struct WebSignedIn: Sendable, Equatable {
    /// The sign-in's session (one per browser signed in).
    public let session: String
    public let userID: Int64
    public let email: String

    public init(session: String, userID: Int64, email: String) {
        self.session = session
        self.userID = userID
        self.email = email
    }
}

/// Where a tab's page was opened from: the client's address, the browser (its secret, the
/// server's browser cookie: never shown), and who is signed in there.
public struct WebVisitor: Sendable, Equatable {
    /// The client's address (behind a trusted proxy, the one it forwarded).
    public var client: String?
    /// Who is signed in, if anyone.
    public var signedIn: WebSignedIn?
    /// The browser's secret (the server's HttpOnly browser cookie).
    package var browser: String?

    public init(client: String? = nil, signedIn: WebSignedIn? = nil) {
        self.client = client
        self.signedIn = signedIn
    }

    package init(client: String?, signedIn: WebSignedIn?, browser: String?) {
        self.client = client
        self.signedIn = signedIn
        self.browser = browser
    }
}

extension Document {
    /// Asks the page to trade the one-time `code` for its sign-in cookie (a `POST` to the
    /// server's `/mvvm-sign-in`, which sets it HttpOnly), then load `next` (its own address when
    /// `nil`) as a new page, whose session is signed in.
    public func handOffSignIn(_ code: String, then next: WebLocation?) {
        if let next, next.description.hasPrefix("//") {
            log("refused to go to \(next) after signing in: an address beginning with // is another site's")
            return
        }
        append(.signIn(code: code, next: next?.description))
    }

    /// Asks the page to load its address again, as a new page: its sign-in ended (signed out
    /// here, in another tab, or everywhere).
    public func signedOut() {
        append(.reload)
    }
}
