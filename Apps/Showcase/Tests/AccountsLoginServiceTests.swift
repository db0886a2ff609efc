#if WebServer
import Accounts
import Login
import ShowcaseCore
import Signals
import SignalsTesting
import Store
import Testing

/// Issue 60: the seed's login made real — sign-in and sign-up against accounts in the store,
/// the three demo users made on the first sign-in with their three outcomes kept (success, a
/// failure that needs verification, the server's error), a wrong password and an unknown user
/// one failure, a new account signing in.
@Suite struct AccountsLoginServiceTests {
    static func outcome(_ signal: Signal<LoginOutcome, LoginError>) async -> Result<LoginOutcome, LoginError> {
        await withCheckedContinuation { continuation in
            let done = Locked(false)
            _ = signal.sink(value: { outcome in
                if !done.withLock({ let was = $0; $0 = true; return was }) { continuation.resume(returning: .success(outcome)) }
            }, completion: { completion in
                if let error = completion.failure, !done.withLock({ let was = $0; $0 = true; return was }) { continuation.resume(returning: .failure(error)) }
            })
        }
    }

    @Test func theSeedsThreeOutcomesAndSignUpAgainstTheStore() async throws {
        var limits = AccountsLoginService.limits
        limits.hashing = PasswordHashing(log2Rounds: 10, blockSize: 8, parallelism: 1)
        let store = try await Store.sqliteInMemory(migrations: Accounts.migrations)
        let service = AccountsLoginService(accounts: Accounts(store: store, limits: limits), client: AccountClient(browser: nil, address: "10.0.0.1"),
                                           scheduler: ImmediateScheduler.shared)
        #expect(await Self.outcome(service.login(userName: "ada", password: "lovelace")) == .success(.success(User(userName: "ada", displayName: "Ada Lovelace"))))
        #expect(await Self.outcome(service.login(userName: "grace", password: "hopper"))
            == .success(.failure("This account needs verification. Check your email for the link.")))
        #expect(await Self.outcome(service.login(userName: "alan", password: "turing")) == .failure(LoginError("The server is unavailable. Try again in a few minutes.")))
        #expect(await Self.outcome(service.login(userName: "ada", password: "babbage")) == .success(.failure("Wrong user name or password.")))
        #expect(await Self.outcome(service.login(userName: "charles", password: "babbage")) == .success(.failure("Wrong user name or password.")))
        #expect(service.newPasswordMinimum == 8)
        #expect(await Self.outcome(service.signUp(userName: "charles", password: "engine")) == .success(.failure("At least 8 characters.")))
        #expect(await Self.outcome(service.signUp(userName: "ada", password: "difference")) == .success(.failure("That user name is taken. Sign in, or choose another.")))
        #expect(await Self.outcome(service.signUp(userName: "Charles", password: "difference")) == .success(.success(User(userName: "charles", displayName: "charles"))))
        #expect(await Self.outcome(service.login(userName: "charles", password: "difference")) == .success(.success(User(userName: "charles", displayName: "charles"))))
        let users = Query<Int>("SELECT count(*) AS n FROM account_users", reads: ["account_users"]) { rows throws(StoreError) in try rows[0].int("n") }
        #expect(try await store.fetch(users) == 4, "the demo users were made once")
        await store.close()
    }

    /// The services one maker makes (one per session) seed the demo users once between them: the
    /// second session's first sign-in computes one hash (its own). The seeding goes with the
    /// maker: no registry keeps the accounts once the program lets them go.
    @Test func theServicesOfOneMakerSeedOnce() async throws {
        weak var kept: Accounts?
        var limits = AccountsLoginService.limits
        limits.hashing = PasswordHashing(log2Rounds: 10, blockSize: 8, parallelism: 1)
        let store = try await Store.sqliteInMemory(migrations: Accounts.migrations)
        do {
            let accounts = Accounts(store: store, limits: limits)
            kept = accounts
            let service = AccountsLoginService.makers(accounts: accounts)
            let first = service(AccountClient(browser: nil, address: "10.0.0.1"), ImmediateScheduler.shared)
            #expect(await Self.outcome(first.login(userName: "ada", password: "lovelace")) == .success(.success(User(userName: "ada", displayName: "Ada Lovelace"))))
            #expect(accounts.hashesComputed == 4, "three demo users made, then Ada's password checked")
            let second = service(AccountClient(browser: nil, address: "10.0.0.2"), ImmediateScheduler.shared)
            #expect(await Self.outcome(second.login(userName: "ada", password: "lovelace")) == .success(.success(User(userName: "ada", displayName: "Ada Lovelace"))))
            #expect(accounts.hashesComputed == 5, "the second session's sign-in checked the password")
        }
        #expect(kept == nil, "the first accounts are let go with their maker and services")
        await store.close()
    }
}
#endif
