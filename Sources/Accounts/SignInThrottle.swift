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

    /// The seconds to wait, if a count has reached its limit within its window.
    func throttled(_ keys: ThrottleKeys, now: Int64) async throws(AccountError) -> Int? {
        let window = limits.window.components.seconds
        let all = keys.all
        let rows: [StoreRow]
        do {
            rows = try await store.write { db throws(StoreError) in
                try await db.fetch(
                    "SELECT key, failures, since FROM account_attempts WHERE key IN (\(all.map { _ in "?" }.joined(separator: ", ")))",
                    all.map { .text($0.key) }
                )
            }
        } catch {
            throw AccountError(error)
        }
        var wait: Int?
        for row in rows {
            guard let key = try? row.text("key"), let failures = try? row.int("failures"), let since = try? row.int("since"),
                  let limit = all.first(where: { $0.key == key })?.limit else { continue }
            let left = Int64(since) + window - now
            if failures >= limit, left > 0 { wait = max(wait ?? 0, Int(left)) }
        }
        return wait
    }

    /// One more failure on each count (a count whose window has ended begins again).
    func countFailure(_ keys: ThrottleKeys, now: Int64) async throws(AccountError) {
        let start = now - limits.window.components.seconds
        let all = keys.all
        do {
            try await store.write { db throws(StoreError) in
                for (key, _) in all {
                    try await db.execute(
                        """
                        INSERT INTO account_attempts (key, failures, since) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET \
                        failures = CASE WHEN account_attempts.since <= ? THEN 1 ELSE account_attempts.failures + 1 END, \
                        since = CASE WHEN account_attempts.since <= ? THEN excluded.since ELSE account_attempts.since END
                        """,
                        [.text(key), .integer(now), .integer(start), .integer(start)]
                    )
                }
            }
        } catch {
            throw AccountError(error)
        }
    }
}
#endif
