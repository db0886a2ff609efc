#if WebServer
import Store

/// Failed sign-ins, counted in the store (so that every instance counts the same), each count
/// in a window that begins at its first failure (``Accounts/Limits-swift.struct/window``).
extension Accounts {
    /// The counts a sign-in is held to: its address's, and its account's (from browsers the
    /// account was never signed in from) or its own browser's for that account.
    struct ThrottleKeys: Sendable {
        var address: (key: String, limit: Int)?
        var account: (key: String, limit: Int)

        var all: [(key: String, limit: Int)] { (address.map { [$0] } ?? []) + [account] }
    }

    func throttleKeys(email: String, browser: String, known: Bool, address: String?) -> ThrottleKeys {
        ThrottleKeys(
            address: address.map { ("address " + $0, limits.failuresPerAddress) },
            account: known ? ("browser \(browser) \(email)", limits.failuresPerKnownBrowser) : ("account " + email, limits.failuresPerAccount)
        )
    }

    /// Counts this attempt as a failure on each count before its password is checked, in one
    /// transaction, or refuses it: the seconds to wait when a count had already reached its limit
    /// within its window (the attempt is then not counted). Counted first, so that guesses sent
    /// at once (fifty addresses, each while the others are being hashed) are held to the limit
    /// as guesses one after another are: checked and then counted, 50 addresses at once had 59
    /// checked where the limit was 10 (signin_attack.py). ``releaseAttempt(_:)`` takes it back
    /// when the password was right, or when it was never checked.
    func reserveAttempt(_ keys: ThrottleKeys, now: Int64) async throws(AccountError) -> Int? {
        let window = limits.window.components.seconds, start = now - window
        let all = keys.all
        do {
            return try await store.write { db throws(StoreError) -> Int? in
                var wait: Int?
                for (key, limit) in all {
                    // A count whose window has ended begins again.
                    let rows = try await db.fetch(
                        """
                        INSERT INTO account_attempts (key, failures, since) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET \
                        failures = CASE WHEN account_attempts.since <= ? THEN 1 ELSE account_attempts.failures + 1 END, \
                        since = CASE WHEN account_attempts.since <= ? THEN excluded.since ELSE account_attempts.since END \
                        RETURNING failures, since
                        """,
                        [.text(key), .integer(now), .integer(start), .integer(start)]
                    )
                    guard let row = rows.first else { continue }
                    let left = Int64(try row.int("since")) + window - now
                    if try row.int("failures") > limit, left > 0 { wait = max(wait ?? 0, Int(left)) }
                }
                if wait != nil { try await Self.uncount(all.map(\.key), in: db) }
                return wait
            }
        } catch {
            throw AccountError(error)
        }
    }

    /// Takes back an attempt ``reserveAttempt(_:now:)`` counted: its password was right, or it
    /// was never checked (the hashing was busy, the database away).
    func releaseAttempt(_ keys: ThrottleKeys) async throws(AccountError) {
        do {
            try await store.write { db throws(StoreError) in try await Self.uncount(keys.all.map(\.key), in: db) }
        } catch {
            throw AccountError(error)
        }
    }

    private static func uncount(_ keys: [String], in db: StoreTransaction) async throws(StoreError) {
        try await db.execute(
            "UPDATE account_attempts SET failures = failures - 1 WHERE failures > 0 AND key IN (\(keys.map { _ in "?" }.joined(separator: ", ")))",
            keys.map { .text($0) }
        )
    }
}
#endif
