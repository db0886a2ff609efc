import Signals

/// Signs users in, and up. One value (the outcome) then completion, or a ``LoginError``.
public protocol LoginService: Sendable {
    func login(userName: String, password: String) -> Signal<LoginOutcome, LoginError>
    /// Makes an account and signs it in: ``LoginOutcome/success(_:)``, or a failure saying
    /// why (the user name is taken, a rule refused it).
    func signUp(userName: String, password: String) -> Signal<LoginOutcome, LoginError>
    /// The fewest characters a new password has.
    var newPasswordMinimum: Int { get }
}

extension LoginService {
    /// A service without sign-up says so.
    public func signUp(userName: String, password: String) -> Signal<LoginOutcome, LoginError> {
        .just(.failure("Signing up is not available here."))
    }

    /// The seed's rule: 3 characters.
    public var newPasswordMinimum: Int { 3 }
}

/// The embedded login service (the default): known users whose logins end in each outcome,
/// answering after `latency` on the given scheduler.
///
/// | user name | password | outcome |
/// |---|---|---|
/// | `ada` | `lovelace` | success |
/// | `grace` | `hopper` | failure: the account needs verification |
/// | `alan` | `turing` | error: the server is unavailable |
/// | any known user | another password | failure: wrong user name or password |
/// | anyone else | | failure: wrong user name or password |
public final class OfflineLoginService: LoginService {
    struct Account: Sendable {
        let password: String
        let result: Result<LoginOutcome, LoginError>
    }

    static let accounts: [String: Account] = [
        "ada": Account(password: "lovelace", result: .success(.success(User(userName: "ada", displayName: "Ada Lovelace")))),
        "grace": Account(password: "hopper", result: .success(.failure("This account needs verification. Check your email for the link."))),
        "alan": Account(password: "turing", result: .failure(LoginError("The server is unavailable. Try again in a few minutes."))),
    ]

    static let wrongCredentials = LoginOutcome.failure("Wrong user name or password.")

    private let scheduler: any Scheduler
    private let latency: Duration
    private let forcedError = Locked<LoginError?>(nil)
    /// Accounts signed up since the service was made (user name → password), in memory.
    private let signedUp = Locked<[String: String]>([:])

    /// Creates the service; answers take `latency` on `scheduler`.
    public init(scheduler: any Scheduler, latency: Duration = .milliseconds(600)) {
        self.scheduler = scheduler
        self.latency = latency
    }

    /// Makes every following request fail with `error` (`nil` to stop), for error-path tests.
    public func failRequests(with error: LoginError?) {
        forcedError.withLock { $0 = error }
    }

    public func login(userName: String, password: String) -> Signal<LoginOutcome, LoginError> {
        let forced = forcedError.value
        let result: Result<LoginOutcome, LoginError>
        if let forced {
            result = .failure(forced)
        } else if let account = Self.accounts[userName], account.password == password {
            result = account.result
        } else if let kept = signedUp.value[userName], kept == password {
            result = .success(.success(User(userName: userName, displayName: userName)))
        } else {
            result = .success(Self.wrongCredentials)
        }
        let answer: Signal<LoginOutcome, LoginError>
        switch result {
        case .success(let outcome): answer = .just(outcome)
        case .failure(let error): answer = .fail(error)
        }
        return answer.delaySubscription(for: latency, on: scheduler)
    }

    /// A new account in this service's memory (gone with it); a user name the demo or an
    /// earlier sign-up has is taken.
    public func signUp(userName: String, password: String) -> Signal<LoginOutcome, LoginError> {
        if let forced = forcedError.value { return Signal.fail(forced).delaySubscription(for: latency, on: scheduler) }
        let added = signedUp.withLock { accounts -> Bool in
            guard Self.accounts[userName] == nil, accounts[userName] == nil else { return false }
            accounts[userName] = password
            return true
        }
        let outcome: LoginOutcome = added ? .success(User(userName: userName, displayName: userName)) : .failure(Self.nameTaken)
        return Signal.just(outcome).delaySubscription(for: latency, on: scheduler)
    }

    static let nameTaken = "That user name is taken. Sign in, or choose another."
}
