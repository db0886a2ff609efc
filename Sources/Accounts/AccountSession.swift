#if WebServer
import Signals

/// One tab's accounts, for its view models: who is signed in there, and sign-in, sign-up,
/// sign-out, sign-out everywhere and password change, as signals an `Action` runs. A web app's
/// tab gets its own from the server (`tab.account(accounts)`); a test makes one with a
/// hand-off of its own.
///
/// The tab's user is fixed for its life: a sign-in (or sign-up) hands the page its cookie and
/// loads it anew at the address it leads to, signed in; a sign-out loads every tab of that
/// sign-in anew, signed out.
public final class AccountSession: Sendable {
    public let accounts: Accounts
    /// Who is signed in on this tab (`nil`: no one).
    public let user: AccountUser?
    /// The sign-in this tab was opened with.
    public let session: String?
    private let client: AccountClient
    private let scheduler: any Scheduler
    private let handOff: @Sendable (_ code: String, _ next: String?) -> Void

    /// A tab's accounts: `signedIn` as the server found it from the browser's cookie; `client`
    /// the browser and address it asks from; results delivered on `scheduler` (the tab's);
    /// `handOff` asks the page to take a sign-in's cookie with its one-time code, then load
    /// `next` (its own address when `nil`).
    public init(accounts: Accounts, signedIn: AccountSignedIn?, client: AccountClient, scheduler: any Scheduler = ImmediateScheduler.shared,
                handOff: @escaping @Sendable (_ code: String, _ next: String?) -> Void) {
        self.accounts = accounts
        user = signedIn?.user
        session = signedIn?.session
        self.client = client
        self.scheduler = scheduler
        self.handOff = handOff
    }

    /// Signs in; on success the page takes its cookie and loads `next` (its own address when
    /// `nil`), signed in. Fails with ``AccountError/incorrect`` alike for an unknown email and a
    /// wrong password.
    public func signIn(email: String, password: String, then next: String? = nil) -> Signal<AccountUser, AccountError> {
        let accounts = self.accounts, client = self.client, handOff = self.handOff
        return Signal<AccountUser, AccountError>.task { () async throws(AccountError) -> AccountUser in
            let made = try await accounts.signIn(email: email, password: password, from: client)
            handOff(made.handOff, next)
            return made.user
        }.observe(on: scheduler)
    }

    /// Makes an account and signs it in, as ``signIn(email:password:then:)``.
    public func signUp(email: String, password: String, then next: String? = nil) -> Signal<AccountUser, AccountError> {
        let accounts = self.accounts, client = self.client, handOff = self.handOff
        return Signal<AccountUser, AccountError>.task { () async throws(AccountError) -> AccountUser in
            let made = try await accounts.signUp(email: email, password: password, from: client)
            handOff(made.handOff, next)
            return made.user
        }.observe(on: scheduler)
    }

    /// Ends this tab's sign-in: every tab of this browser signed in with it loads anew, signed out.
    public func signOut() -> Signal<Void, AccountError> {
        let accounts = self.accounts, session = self.session
        return Signal<Void, AccountError>.task { () async throws(AccountError) in
            guard let session else { throw .notSignedIn }
            try await accounts.signOut(session: session)
        }.observe(on: scheduler)
    }

    /// Ends every sign-in of this user, on every browser and instance.
    public func signOutEverywhere() -> Signal<Void, AccountError> {
        let accounts = self.accounts, user = self.user
        return Signal<Void, AccountError>.task { () async throws(AccountError) in
            guard let user else { throw .notSignedIn }
            try await accounts.signOutEverywhere(user)
        }.observe(on: scheduler)
    }

    /// Changes the password, if `current` is it, and ends every other sign-in of this user.
    public func changePassword(current: String, new: String) -> Signal<Void, AccountError> {
        let accounts = self.accounts, user = self.user, session = self.session, client = self.client
        return Signal<Void, AccountError>.task { () async throws(AccountError) in
            guard let user else { throw .notSignedIn }
            try await accounts.changePassword(of: user, current: current, new: new, keeping: session, from: client)
        }.observe(on: scheduler)
    }
}
#endif
