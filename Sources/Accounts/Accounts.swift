#if WebServer
import Foundation
import Signals
import Store

/// People who sign up, sign in and out, kept in a `Store` (SQLite on one machine, PostgreSQL
/// across instances), as Phoenix's `mix phx.gen.auth` keeps them: passwords hashed with scrypt
/// (``PasswordHashing``), never kept or logged; a new random token at each sign-in, kept only
/// as its SHA-256, sent to the browser as an HttpOnly cookie by the server; sessions that end
/// after ``Limits-swift.struct/idleLifetime`` without a visit or
/// ``Limits-swift.struct/absoluteLifetime`` after sign-in; failed sign-ins throttled per address
/// and per account (``Limits-swift.struct``); an unknown email and a wrong password answered
/// alike (``AccountError/incorrect``), after the same work.
///
/// A web app gives it to its server (`server.useAccounts(accounts)`), and each tab's view models
/// get the tab's ``AccountSession`` (`tab.account(accounts)`): who is signed in, and sign-in,
/// sign-up, sign-out, sign-out everywhere and password change for that tab.
///
/// ```swift
/// let store = try await Store.sqlite(path: "app.sqlite", migrations: App.migrations + Accounts.migrations)
/// let accounts = Accounts(store: store)
/// ```
public final class Accounts: Sendable {
    /// What accounts allow, and for how long.
    public struct Limits: Sendable {
        /// A session not seen (no page opened or reconnected with its cookie) for this long ends.
        public var idleLifetime: Duration = .seconds(24 * 3600)
        /// A session ends this long after its sign-in, however active.
        public var absoluteLifetime: Duration = .seconds(30 * 86_400)
        /// The window failed sign-ins are counted in (from the first failure).
        public var window: Duration = .seconds(15 * 60)
        /// Failed sign-ins one client address may make in ``window`` (to any accounts); past it,
        /// every sign-in from it is refused until the window ends.
        public var failuresPerAddress = 50
        /// Failed sign-ins to one account (an email, whether it has an account or not) from
        /// browsers it was never signed in from, in ``window``; past it, the account is refused
        /// to every such browser until the window ends. A browser it was signed in from keeps a
        /// count of its own (``failuresPerKnownBrowser``): an attack from elsewhere does not lock
        /// its owner out there.
        public var failuresPerAccount = 10
        /// Failed sign-ins to one account from one browser it was signed in from, in ``window``.
        public var failuresPerKnownBrowser = 10
        /// How passwords are hashed.
        public var hashing = PasswordHashing.owasp
        /// Passwords hashed at once (each takes ``PasswordHashing/memory``), and how many more
        /// may wait; past that a sign-in is answered ``AccountError/busy``.
        public var hashesAtOnce = max(1, ProcessInfo.processInfo.activeProcessorCount)
        public var hashesWaiting = 64
        /// The fewest characters a new password has (OWASP: 8 at least).
        public var minimumPasswordLength = 8
        /// How long the page that signed in has to take its cookie.
        public var handOffLifetime: Duration = .seconds(60)
        /// What people sign in with: an email address (the default), or a user name.
        public var names = AccountNames.emails

        public init() {}
    }

    public let store: Store
    public let limits: Limits
    private let hashing: HashingQueue
    /// What an unknown email's password is checked against, so that it costs what a known one's does.
    private let decoy = Locked<String?>(nil)
    private let clock: @Sendable () -> Int64
    private let signOuts = PublishSubject<String, Never>()
    private let watch: Locked<(any Disposable)?> = Locked(nil)
    private let seenSignOuts = Locked<Set<Int64>?>(nil)
    private let lastPrune = Locked<Int64>(0)

    /// Accounts kept in `store`, whose migrations include ``migrations``.
    public convenience init(store: Store, limits: Limits = Limits()) {
        self.init(store: store, limits: limits, clock: { Int64(Date().timeIntervalSince1970) })
    }

    /// With a clock of its own (seconds since 1970), for tests.
    package init(store: Store, limits: Limits, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.limits = limits
        self.clock = clock
        hashing = HashingQueue(running: limits.hashesAtOnce, waiting: limits.hashesWaiting)
        let seen = seenSignOuts, subject = signOuts
        let subscription = store.observe(Self.recentSignOuts).sink(value: { rows in
            let fresh = seen.withLock { seen -> [String] in
                defer { seen = Set(rows.map(\.serial)) }
                guard let known = seen else { return [] }
                return rows.filter { !known.contains($0.serial) }.map(\.session)
            }
            for session in fresh { subject.send(session) }
        })
        watch.withLock { $0 = subscription }
    }

    deinit {
        watch.withLock { $0?.dispose() }
    }

    /// Passwords hashed (or checked) so far by this object: for tests.
    package var hashesComputed: Int { hashing.computed.value }

    /// The id of every session signed out from now on, on any instance on the same database, as
    /// the store sees the change (at once here; within milliseconds on PostgreSQL elsewhere):
    /// the server closes the tabs signed in with it.
    public var signedOut: Signal<String, Never> { signOuts.signal }

    // MARK: Signing up and in

    /// A new account for `email` and `password`, signed in (see ``signIn(email:password:from:)``).
    public func signUp(email: String, password: String, from client: AccountClient) async throws(AccountError) -> AccountSignIn {
        try await startSession(for: try await register(email: email, password: password), from: client)
    }

    /// A new account for `email` and `password`, held to the rules sign-up holds it to, without
    /// a session (an app that keeps its own, or a test's).
    public func register(email: String, password: String) async throws(AccountError) -> AccountUser {
        let email = try checkedName(email)
        try checkNewPassword(password)
        let hashed = try await hash(password)
        let now = clock()
        let user: AccountUser? = try await writing { db throws(StoreError) in
            let rows = try await db.fetch(
                "INSERT INTO account_users (email, password_hash, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id",
                [.text(email), .text(hashed), .integer(now)]
            )
            guard let row = rows.first else { return nil }
            return AccountUser(id: Int64(try row.int("id")), email: email)
        }
        guard let user else { throw .emailTaken }
        return user
    }

    /// Creates `email`'s account with `password` unless it has one (the demo users an app seeds
    /// on first start); whether it was created.
    /// `status` is the new account's (an app's demo users: one that still needs verification,
    /// say). An email that has an account already is left as it is, and nothing is hashed.
    @discardableResult
    public func ensureUser(email: String, password: String, status: AccountStatus = .active) async throws(AccountError) -> Bool {
        let email = try checkedName(email)
        let exists = try await reading { db throws(StoreError) in
            try await !db.fetch("SELECT id FROM account_users WHERE email = ?", [.text(email)]).isEmpty
        }
        if exists { return false }
        let hashed = try await hash(password)
        let now = clock()
        return try await writing { db throws(StoreError) in
            try await !db.fetch(
                "INSERT INTO account_users (email, password_hash, created_at, status) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id",
                [.text(email), .text(hashed), .integer(now), .text(status.rawValue)]
            ).isEmpty
        }
    }

    /// Sets `email`'s account's status: ``AccountStatus/unverified`` or
    /// ``AccountStatus/disabled`` refuse its sign-ins (after its password was checked), and
    /// disabling it ends its sessions. Whether it has an account.
    @discardableResult
    public func setStatus(_ status: AccountStatus, of email: String) async throws(AccountError) -> Bool {
        let email = Self.normalized(email)
        let id = try await writing { db throws(StoreError) -> Int64? in
            let rows = try await db.fetch("UPDATE account_users SET status = ? WHERE email = ? RETURNING id", [.text(status.rawValue), .text(email)])
            guard let row = rows.first else { return nil }
            return Int64(try row.int("id"))
        }
        guard let id else { return false }
        if status != .active { try await end(sessions: "user_id = ?", [.integer(id)]) }
        return true
    }

    /// Signs `email` in with `password` for the browser and address of `client`: a new session
    /// whose cookie the page takes with ``AccountSignIn/handOff`` (the server's
    /// `/mvvm-sign-in`). Refused alike, after the same work, for an unknown email and a wrong
    /// password; refused without checking, with the seconds to wait, past the throttling limits.
    public func signIn(email typed: String, password: String, from client: AccountClient) async throws(AccountError) -> AccountSignIn {
        let (user, key) = try await check(email: typed, password: password, from: client)
        return try await startSession(for: user, from: client, clearing: key)
    }

    /// The account `email` and `password` sign in, checked as ``signIn(email:password:from:)``
    /// checks them (throttled, one answer for an unknown email and a wrong password), without
    /// starting a session: for a password asked again before something that needs it, or an app
    /// that keeps its own sessions.
    public func verify(email: String, password: String, from client: AccountClient) async throws(AccountError) -> AccountUser {
        let (user, key) = try await check(email: email, password: password, from: client)
        try await writing { db throws(StoreError) in
            try await db.execute("DELETE FROM account_attempts WHERE key = ?", [.text(key)])
        }
        return user
    }

    /// The account `typed` and `password` sign in, and the key of its count of failures (to clear).
    private func check(email typed: String, password: String, from client: AccountClient) async throws(AccountError) -> (AccountUser, String) {
        let email = Self.normalized(typed)
        let now = clock()
        let browser = client.browser.map(Hex.sha256) ?? ""
        // The same statements for an unknown email as for a known one.
        let found = try await reading { db throws(StoreError) -> (user: AccountUser?, hash: String?, known: Bool, status: AccountStatus) in
            let rows = try await db.fetch("SELECT id, password_hash, status FROM account_users WHERE email = ?", [.text(email)])
            var id: Int64?
            if let row = rows.first { id = Int64(try row.int("id")) }
            let known = try await !db.fetch("SELECT 1 AS one FROM account_browsers WHERE user_id = ? AND browser_hash = ?",
                                            [.integer(id ?? -1), .text(browser)]).isEmpty
            return (id.map { AccountUser(id: $0, email: email) }, try rows.first?.text("password_hash"), known,
                    AccountStatus(rawValue: try rows.first?.text("status") ?? "active") ?? .disabled)
        }
        let keys = throttleKeys(email: email, browser: browser, known: found.known, address: client.address)
        if let wait = try await reserveAttempt(keys, now: now) { throw .throttled(retryAfter: wait) }
        let current = limits.hashing
        let tooLong = password.utf8.count > PasswordHashing.maxPasswordBytes
        let check: (matches: Bool, outdated: Bool)
        do throws(AccountError) {
            let stored: String
            if let hash = found.hash { stored = hash } else { stored = try await decoyHash() }
            check = try await hashing.run { () throws(AccountError) in
                tooLong ? (matches: false, outdated: false) : try PasswordHashing.verify(password, against: stored, current: current)
            }
        } catch {
            // Never checked (the hashing is busy, say): not a failure.
            try? await releaseAttempt(keys)
            throw error
        }
        guard check.matches, let user = found.user else { throw .incorrect }   // (counted already)
        try await releaseAttempt(keys)
        if check.outdated {
            let rehashed = try await hash(password)
            try await writing { db throws(StoreError) in
                try await db.execute("UPDATE account_users SET password_hash = ? WHERE id = ?", [.text(rehashed), .integer(user.id)])
            }
        }
        switch found.status {
        case .active: return (user, keys.account.key)
        case .unverified: throw .unverified
        case .disabled: throw .disabled
        }
    }

    /// The cookie's token for the session `code` was handed off for, if `browser` is the one it
    /// was for and it is still fresh (``Limits-swift.struct/handOffLifetime``); each code works once.
    public func redeem(handOff code: String, browser: String?) async throws(AccountError) -> String {
        guard code.utf8.count == 64, let browser else { throw .incorrect }
        let token = Hex.random(bytes: 32)
        let now = clock(), oldest = now - limits.handOffLifetime.components.seconds
        let redeemed = try await writing { db throws(StoreError) in
            try await !db.fetch(
                """
                UPDATE account_sessions SET token_hash = ?, handoff_hash = NULL, handoff_browser = NULL, seen_at = ? \
                WHERE handoff_hash = ? AND handoff_browser = ? AND created_at >= ? RETURNING id
                """,
                [.text(Hex.sha256(token)), .integer(now), .text(Hex.sha256(code)), .text(Hex.sha256(browser)), .integer(oldest)]
            ).isEmpty
        }
        guard redeemed else { throw .incorrect }
        return token
    }

    /// Who a cookie's token signs in, if its session is still on (not signed out, not past its
    /// idle or absolute lifetime); a session past a lifetime is ended now.
    public func session(forToken token: String) async throws(AccountError) -> AccountSignedIn? {
        guard token.utf8.count == 64, Hex.decode(Substring(token)) != nil else { return nil }
        let now = clock()
        let found = try await reading { db throws(StoreError) -> (AccountSignedIn, created: Int64, seen: Int64)? in
            let rows = try await db.fetch(
                """
                SELECT s.id, s.user_id, s.created_at, s.seen_at, u.email FROM account_sessions s \
                JOIN account_users u ON u.id = s.user_id WHERE s.token_hash = ?
                """,
                [.text(Hex.sha256(token))]
            )
            guard let row = rows.first else { return nil }
            let user = AccountUser(id: Int64(try row.int("user_id")), email: try row.text("email"))
            return (AccountSignedIn(session: try row.text("id"), user: user), Int64(try row.int("created_at")), Int64(try row.int("seen_at")))
        }
        guard let found else { return nil }
        if found.created + limits.absoluteLifetime.components.seconds <= now || found.seen + limits.idleLifetime.components.seconds <= now {
            try await end(sessions: "id = ?", [.text(found.0.session)])
            return nil
        }
        if now - found.seen >= 60 {
            let id = found.0.session
            try await writing { db throws(StoreError) in
                try await db.execute("UPDATE account_sessions SET seen_at = ? WHERE id = ?", [.integer(now), .text(id)])
            }
        }
        return found.0
    }

    // MARK: Signing out

    /// Ends the session `id` (its cookie no longer signs anyone in; its tabs are told through
    /// ``signedOut``).
    public func signOut(session id: String) async throws(AccountError) {
        try await end(sessions: "id = ?", [.text(id)])
    }

    /// Ends every session of `user`, on every browser and instance.
    public func signOutEverywhere(_ user: AccountUser) async throws(AccountError) {
        try await end(sessions: "user_id = ?", [.integer(user.id)])
    }

    /// Changes `user`'s password, if `current` is theirs, and ends their other sessions
    /// (`keeping` stays signed in).
    public func changePassword(of user: AccountUser, current: String, new: String, keeping session: String?,
                               from client: AccountClient) async throws(AccountError) {
        try checkNewPassword(new)
        let now = clock()
        let stored = try await reading { db throws(StoreError) in
            try await db.fetch("SELECT password_hash FROM account_users WHERE id = ?", [.integer(user.id)]).first?.text("password_hash")
        }
        guard let stored else { throw .notSignedIn }
        let keys = throttleKeys(email: user.email, browser: client.browser.map(Hex.sha256) ?? "", known: true, address: client.address)
        if let wait = try await reserveAttempt(keys, now: now) { throw .throttled(retryAfter: wait) }
        let parameters = limits.hashing
        let tooLong = current.utf8.count > PasswordHashing.maxPasswordBytes
        let check: (matches: Bool, outdated: Bool)
        do throws(AccountError) {
            check = try await hashing.run { () throws(AccountError) in
                tooLong ? (matches: false, outdated: false) : try PasswordHashing.verify(current, against: stored, current: parameters)
            }
        } catch {
            try? await releaseAttempt(keys)
            throw error
        }
        guard check.matches else { throw .incorrect }   // (counted already)
        try await releaseAttempt(keys)
        let rehashed = try await hash(new)
        try await writing { db throws(StoreError) in
            try await db.execute("UPDATE account_users SET password_hash = ? WHERE id = ?", [.text(rehashed), .integer(user.id)])
        }
        try await end(sessions: "user_id = ? AND id <> ?", [.integer(user.id), .text(session ?? "")])
    }

    // MARK: The parts

    private func startSession(for user: AccountUser, from client: AccountClient, clearing key: String? = nil) async throws(AccountError) -> AccountSignIn {
        let id = Hex.random(bytes: 16), code = Hex.random(bytes: 32)
        let now = clock()
        let browser = client.browser.map(Hex.sha256)
        try await writing { db throws(StoreError) in
            try await db.execute(
                "INSERT INTO account_sessions (id, user_id, token_hash, handoff_hash, handoff_browser, created_at, seen_at) VALUES (?, ?, NULL, ?, ?, ?, ?)",
                [.text(id), .integer(user.id), .text(Hex.sha256(code)), browser.map(StoreValue.text) ?? .null, .integer(now), .integer(now)]
            )
            if let browser {
                try await db.execute(
                    "INSERT INTO account_browsers (user_id, browser_hash, seen_at) VALUES (?, ?, ?) ON CONFLICT (user_id, browser_hash) DO UPDATE SET seen_at = excluded.seen_at",
                    [.integer(user.id), .text(browser), .integer(now)]
                )
            }
            if let key { try await db.execute("DELETE FROM account_attempts WHERE key = ?", [.text(key)]) }
        }
        try await pruneIfDue(now: now)
        return AccountSignIn(user: user, session: id, handOff: code)
    }

    /// Ends the sessions `condition` picks, and says so to every instance.
    private func end(sessions condition: String, _ binds: [StoreValue]) async throws(AccountError) {
        let now = clock()
        try await writing { db throws(StoreError) in
            let ended = try await db.fetch("DELETE FROM account_sessions WHERE \(condition) RETURNING id", binds)
            for row in ended {
                try await db.execute("INSERT INTO account_signouts (session_id, at) VALUES (?, ?)", [.text(try row.text("id")), .integer(now)])
            }
        }
    }

    /// Deletes what has expired, at most every 10 minutes: sessions past a lifetime (said as
    /// sign-outs), hand-offs never taken, sign-outs older than 10 minutes, counts of failures
    /// whose window ended, browsers not seen for 400 days.
    private func pruneIfDue(now: Int64) async throws(AccountError) {
        let due = lastPrune.withLock { last -> Bool in
            guard now - last >= 600 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let idle = now - limits.idleLifetime.components.seconds, absolute = now - limits.absoluteLifetime.components.seconds
        try await end(sessions: "seen_at <= ? OR created_at <= ? OR (token_hash IS NULL AND created_at < ?)",
                      [.integer(idle), .integer(absolute), .integer(now - limits.handOffLifetime.components.seconds)])
        let window = limits.window.components.seconds
        try await writing { db throws(StoreError) in
            try await db.execute("DELETE FROM account_signouts WHERE at < ?", [.integer(now - 600)])
            try await db.execute("DELETE FROM account_attempts WHERE since < ?", [.integer(now - window)])
            try await db.execute("DELETE FROM account_browsers WHERE seen_at < ?", [.integer(now - 400 * 86_400)])
        }
    }

    private func hash(_ password: String) async throws(AccountError) -> String {
        let hashing = limits.hashing
        return try await self.hashing.run { () throws(AccountError) in try hashing.hash(password) }
    }

    private func decoyHash() async throws(AccountError) -> String {
        if let decoy = decoy.withLock({ $0 }) { return decoy }
        let made = try await hash(Hex.random(bytes: 16))
        return decoy.withLock { decoy in
            if decoy == nil { decoy = made }
            return decoy ?? made
        }
    }

    private func writing<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T) async throws(AccountError) -> T {
        do { return try await store.write(body) } catch { throw AccountError(error) }
    }

    private func reading<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T) async throws(AccountError) -> T {
        try await writing(body)
    }

    // MARK: Rules

    /// An email as kept: trimmed and lower-cased.
    static func normalized(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// `typed` as kept, if it is a name people may sign up with (``Limits-swift.struct/names``).
    public func checkedName(_ typed: String) throws(AccountError) -> String {
        switch limits.names {
        case .emails:
            return try Self.checkedEmail(typed)
        case .userNames(let minimum):
            let name = Self.normalized(typed)
            guard name.count >= minimum, name.utf8.count <= 254,
                  name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-" }) else {
                throw .invalid(field: "email", message: "At least \(minimum) characters: letters, digits, '.', '_' or '-'.")
            }
            return name
        }
    }

    static func checkedEmail(_ email: String) throws(AccountError) -> String {
        let email = normalized(email)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f }) else {
            throw .invalid(field: "email", message: "Enter an email address, like ada@example.com.")
        }
        return email
    }

    func checkNewPassword(_ password: String) throws(AccountError) {
        guard password.count >= limits.minimumPasswordLength else {
            throw .invalid(field: "password", message: "At least \(limits.minimumPasswordLength) characters.")
        }
        guard password.utf8.count <= PasswordHashing.maxPasswordBytes else {
            throw .invalid(field: "password", message: "At most \(PasswordHashing.maxPasswordBytes) bytes.")
        }
    }
}

/// What people sign in with.
public enum AccountNames: Sendable, Equatable {
    /// An email address (`ada@example.com`), lower-cased.
    case emails
    /// A user name of at least `minimumLength` characters: letters, digits, `.`, `_` or `-`,
    /// lower-cased (kept in the same column as an email would be, ``AccountUser/email``).
    case userNames(minimumLength: Int)
}

/// Whether an account may sign in.
public enum AccountStatus: String, Sendable, Equatable, CaseIterable {
    /// It may.
    case active
    /// Not until it is verified (``AccountError/unverified``).
    case unverified
    /// Not at all (``AccountError/disabled``).
    case disabled
}

/// Who is asking: the browser's secret (the server's browser cookie) and the client's address.
public struct AccountClient: Sendable, Equatable {
    public var browser: String?
    public var address: String?

    public init(browser: String?, address: String?) {
        self.browser = browser
        self.address = address
    }
}

/// A sign-in made: the user, the new session's id, and the one-time code its page trades for
/// the session's cookie.
public struct AccountSignIn: Sendable, Equatable {
    public let user: AccountUser
    public let session: String
    public let handOff: String
}

/// A session a cookie signs in: its id and user.
public struct AccountSignedIn: Sendable, Equatable {
    public let session: String
    public let user: AccountUser

    public init(session: String, user: AccountUser) {
        self.session = session
        self.user = user
    }
}
#endif
