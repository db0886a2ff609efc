#if WebServer
import Accounts
import Login
import Signals

/// The login app against real accounts (issue 60): sign-in and sign-up kept in the showcase's
/// database (`Accounts`, with user names of 3 or more characters), the seed's three demo users
/// made on the first sign-in with their three outcomes kept:
///
/// | user name | password | kept as | outcome |
/// |---|---|---|---|
/// | `ada` | `lovelace` | active | success |
/// | `grace` | `hopper` | unverified | failure: the account needs verification |
/// | `alan` | `turing` | disabled | error: the seed's "server down", which this service reports for a disabled account |
///
/// A wrong password and an unknown user name are one failure ("Wrong user name or password.");
/// too many of them are throttled (a failure that says when to try again); a database that is
/// away is an error. A new password has at least the accounts' minimum (8) characters.
public final class AccountsLoginService: LoginService {
    /// The demo users, made once per process (on the first sign-in or sign-up).
    static let demoUsers: [(name: String, password: String, status: AccountStatus, displayName: String)] = [
        ("ada", "lovelace", .active, "Ada Lovelace"),
        ("grace", "hopper", .unverified, "Grace Hopper"),
        ("alan", "turing", .disabled, "Alan Turing"),
    ]

    private let accounts: Accounts
    private let client: AccountClient
    private let scheduler: any Scheduler
    private let seeded: DemoSeeding

    /// Signs in against `accounts` for `client` (its browser and address count its failures),
    /// answering on `scheduler`. The demo users are made by this service's first sign-in; a
    /// program that makes a service per session makes them once with ``makers(accounts:)``.
    public convenience init(accounts: Accounts, client: AccountClient, scheduler: any Scheduler) {
        self.init(accounts: accounts, client: client, scheduler: scheduler, seeded: DemoSeeding(accounts: accounts))
    }

    private init(accounts: Accounts, client: AccountClient, scheduler: any Scheduler, seeded: DemoSeeding) {
        self.accounts = accounts
        self.client = client
        self.scheduler = scheduler
        self.seeded = seeded
    }

    /// Makes services against `accounts`, one per session (a browser's, a terminal's), which make
    /// the demo users once between them: the first sign-in of any makes them, the others wait
    /// for it. The seeding lives as long as the maker (no registry of every `Accounts`).
    public static func makers(accounts: Accounts) -> @Sendable (AccountClient, any Scheduler) -> AccountsLoginService {
        let seeded = DemoSeeding(accounts: accounts)
        return { client, scheduler in AccountsLoginService(accounts: accounts, client: client, scheduler: scheduler, seeded: seeded) }
    }

    /// The accounts' limits for the login app: user names of 3 or more characters (the seed's rule).
    public static var limits: Accounts.Limits {
        var limits = Accounts.Limits()
        limits.names = .userNames(minimumLength: LoginViewModel.minimumLength)
        return limits
    }

    public var newPasswordMinimum: Int { accounts.limits.minimumPasswordLength }

    public func login(userName: String, password: String) -> Signal<LoginOutcome, LoginError> {
        let accounts = self.accounts, client = self.client, seeded = self.seeded
        return Signal<LoginOutcome, LoginError>.task { () async throws(LoginError) -> LoginOutcome in
            try await seeded.done()
            do throws(AccountError) {
                let user = try await accounts.verify(email: userName, password: password, from: client)
                return .success(Self.user(user))
            } catch {
                return try Self.outcome(of: error)
            }
        }.observe(on: scheduler)
    }

    public func signUp(userName: String, password: String) -> Signal<LoginOutcome, LoginError> {
        let accounts = self.accounts, seeded = self.seeded
        return Signal<LoginOutcome, LoginError>.task { () async throws(LoginError) -> LoginOutcome in
            try await seeded.done()
            do throws(AccountError) {
                return .success(Self.user(try await accounts.register(email: userName, password: password)))
            } catch .emailTaken {
                return .failure("That user name is taken. Sign in, or choose another.")
            } catch {
                return try Self.outcome(of: error)
            }
        }.observe(on: scheduler)
    }

    static func user(_ user: AccountUser) -> User {
        User(userName: user.email, displayName: demoUsers.first { $0.name == user.email }?.displayName ?? user.email)
    }

    /// A refused sign-in as the login app's outcome: a failure, or an error (the server's part).
    static func outcome(of error: AccountError) throws(LoginError) -> LoginOutcome {
        switch error {
        case .incorrect: return .failure("Wrong user name or password.")
        case .unverified: return .failure("This account needs verification. Check your email for the link.")
        case .disabled: throw LoginError("The server is unavailable. Try again in a few minutes.")
        case .throttled, .invalid, .emailTaken, .notSignedIn: return .failure(error.message)
        case .busy, .unavailable: throw LoginError(error.message)
        }
    }
}

/// The demo users' making, once for the services that share it: every sign-in waits for it; a
/// failure is tried again by the next.
final class DemoSeeding: Sendable {
    private let accounts: Accounts
    private let task = Locked<Task<Bool, Never>?>(nil)

    init(accounts: Accounts) { self.accounts = accounts }

    func done() async throws(LoginError) {
        let accounts = self.accounts
        let running = task.withLock { task in
            if let task { return task }
            let made = Task {
                for demo in AccountsLoginService.demoUsers {
                    do {
                        try await accounts.ensureUser(email: demo.name, password: demo.password, status: demo.status)
                    } catch {
                        return false
                    }
                }
                return true
            }
            task = made
            return made
        }
        guard await running.value else {
            task.withLock { $0 = nil }
            throw LoginError("The accounts' database is unavailable. Try again in a moment.")
        }
    }
}
#endif
