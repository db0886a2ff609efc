import Foundation
import PostgresTestSupport
import Signals
import Store
import Testing

/// Issue 60, writes never doubled or silently lost: a write the caller gave up on before its
/// `COMMIT` is rolled back and its connection lent again only outside the transaction; one whose
/// `COMMIT` was not confirmed says "may have been saved"; a key makes a retry apply once; a
/// failed statement fails its write even when the body caught the error.
@Suite struct StoreWriteOutcomeTests {
    typealias Item = StoreTests.Item

    /// A key applies its write once, however often it is asked (SQLite, and PostgreSQL from two
    /// instances at once).
    @Test(arguments: StoreTests.Engine.available)
    func aKeyedWriteAppliesOnce(engine: StoreTests.Engine) async throws {
        let store = try await StoreTests.store(engine)
        let runs = Locked(0)
        let add: @Sendable (StoreTransaction) async throws(StoreError) -> Void = { db throws(StoreError) in
            runs.withLock { $0 += 1 }
            try await db.execute("INSERT INTO items (title) VALUES (?)", ["Milk"])
        }
        #expect(try await store.write(once: "add-1", add))
        #expect(try await store.write(once: "add-1", add) == false)
        #expect(try await store.write(once: "add-2") { db throws(StoreError) in try await db.execute("INSERT INTO items (title) VALUES (?)", ["Eggs"]) })
        #expect(runs.value == 1)
        #expect(try await store.fetch(StoreTests.allItems()).map(\.title) == ["Milk", "Eggs"])
        // A key whose write failed is not kept: the retry applies it.
        await #expect(throws: StoreError.self) {
            try await store.write(once: "add-3") { db throws(StoreError) in try await db.execute("INSERT INTO items (title) VALUES (?)", ["Milk"]) }
        }
        #expect(try await store.write(once: "add-3") { db throws(StoreError) in try await db.execute("INSERT INTO items (title) VALUES (?)", ["Bread"]) })
        await store.close()
    }

    /// A key is kept for a day: one older is deleted (at most once an hour), so its retry
    /// applies again; one younger still refuses it.
    @Test(arguments: StoreTests.Engine.available)
    func keysAreKeptForADay(engine: StoreTests.Engine) async throws {
        let store = try await StoreTests.store(engine)
        let day = Int64(Store.appliedKeyLifetime.components.seconds)
        let now = Int64(Date().timeIntervalSince1970)
        try await store.write { db throws(StoreError) in
            try await db.execute("CREATE TABLE store_applied_writes (key TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)")
            try await db.execute("INSERT INTO store_applied_writes (key, applied_at) VALUES ('old', ?), ('young', ?)", [.integer(now - day - 10), .integer(now - day + 10)])
        }
        #expect(try await store.write(once: "another") { _ throws(StoreError) in })   // the store's first: deletes the keys older than a day
        #expect(try await store.write(once: "old") { _ throws(StoreError) in })
        #expect(try await store.write(once: "young") { _ throws(StoreError) in } == false)
        await store.close()
    }
}

#if PostgreSQL && SQLite
/// The PostgreSQL side: timeouts and a connection killed mid-commit, on a private cluster (its
/// backends are terminated here) and with one connection in the pool, so the next write gets
/// the very connection the one before used.
@Suite(.enabled(if: PostgresCluster.available || PostgresCluster.required, "PostgreSQL is not installed"), .serialized)
struct PostgresWriteOutcomeTests {
    static let cluster: Result<PostgresCluster, PostgresCluster.Failure> = PostgresCluster.keptForTheRun()

    /// A store on a database of its own, with one connection (unless told) and `timeout`; items whose title
    /// starts with "slow" take `commitSeconds` to commit (a deferred trigger sleeps in COMMIT).
    static func store(timeout: Duration, commitSeconds: Int = 0, connections: Int = 1) async throws -> (Store, url: String) {
        let cluster = try await PostgresCluster.offThePool { Self.cluster }.get()
        let name = "w_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresCluster.blocking { try cluster.psql("CREATE DATABASE \(name)") }
        let url = "postgres://postgres@127.0.0.1:\(cluster.port)/\(name)"
        let store = try await Store.postgres(url: url, migrations: migrations(commitSeconds: commitSeconds), connections: connections, requestTimeout: timeout)
        return (store, url)
    }

    /// The items' migrations, and a deferred trigger that sleeps `commitSeconds` in the COMMIT of
    /// an item whose title starts with "slow".
    static func migrations(commitSeconds: Int) -> [Migration] {
        StoreTests.migrations + [Migration("2-slow-commits", sqlite: [], postgres: [
            "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(\(commitSeconds)); RETURN NULL; END $$",
            "CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON items DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.title LIKE 'slow%') EXECUTE FUNCTION slow_commit()",
        ])]
    }

    /// The titles of the items on the database at `url`, read by a store of their own.
    static func titles(_ url: String) async throws -> [String] {
        let reader = try await Store.postgres(url: url, migrations: migrations(commitSeconds: 0), requestTimeout: .seconds(30))
        defer { Task { await reader.close() } }
        return try await reader.fetch(StoreTests.allItems()).map(\.title)
    }

    /// Given up while its body runs: "unavailable", nothing kept, and the one connection is lent
    /// to the next write outside that transaction (else the next write's COMMIT would keep
    /// "slow" too).
    @Test func aWriteGivenUpBeforeItsCommitIsRolledBack() async throws {
        let (store, url) = try await Self.store(timeout: .seconds(2))
        do {
            try await store.write { db throws(StoreError) in
                try await db.execute("INSERT INTO items (title) VALUES (?)", ["slow given up"])
                try await db.execute("SELECT pg_sleep(4)")   // ends after the wait gave up: the body returns, and is not committed
            }
            Issue.record("the write was not given up")
        } catch {
            guard case .unavailable = error else { Issue.record("\(error)"); return }
        }
        try await Task.sleep(for: .seconds(3))  // the body's sleep ends; it rolls back
        try await StoreTests.insert(store, "next")
        #expect(try await Self.titles(url) == ["next"])
        await store.close()
    }

    /// Given up while its COMMIT runs: "may have been saved"; it was, the observed query shows
    /// it once it is (two connections: the query run again at once reads on the other, before
    /// the commit ends), and a retry with the same key does not add it again.
    @Test func aCommitNotConfirmedInTimeMayHaveBeenSaved() async throws {
        let (store, url) = try await Self.store(timeout: .seconds(2), commitSeconds: 5, connections: 2)
        let seen = store.property(StoreTests.allItems(), initial: [])
        let add: @Sendable (StoreTransaction) async throws(StoreError) -> Void = { db throws(StoreError) in
            try await db.execute("INSERT INTO items (title) VALUES (?)", ["slow kept"])
        }
        do {
            try await store.write(once: "add-slow", add)
            Issue.record("the commit was confirmed in time")
        } catch {
            guard case .maybeSaved = error else { Issue.record("\(error)"); return }
            #expect(error.message.contains("may have been saved"))
        }
        #expect(await StoreTests.eventually(15) { seen.value.map(\.title) == ["slow kept"] }, "the commit went through: the query shows it")
        #expect(try await store.write(once: "add-slow", add) == false)
        #expect(try await Self.titles(url) == ["slow kept"])
        await store.close()
    }

    /// The connection killed while its COMMIT runs (`pg_terminate_backend`): "may have been
    /// saved"; the pool's next write runs on a new connection, not inside the dead transaction.
    @Test func aConnectionKilledMidCommitIsNeverLentAgain() async throws {
        let (store, url) = try await Self.store(timeout: .seconds(30), commitSeconds: 30)
        let killer = try await Store.postgres(url: url, migrations: Self.migrations(commitSeconds: 0), requestTimeout: .seconds(30))
        let write = Task { try await StoreTests.insert(store, "slow killed") }
        var killed = false
        for _ in 0..<100 where !killed {
            try await Task.sleep(for: .milliseconds(100))
            let rows = try await killer.write { db throws(StoreError) in
                try await db.fetch("SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE query = 'COMMIT' AND state = 'active'")
            }
            killed = !rows.isEmpty
        }
        #expect(killed, "no COMMIT was seen running")
        let outcome = await write.result
        guard case .failure(let error) = outcome, case .maybeSaved? = error as? StoreError else { Issue.record("\(outcome)"); return }
        try await StoreTests.insert(store, "after")
        #expect(try await Self.titles(url) == ["after"])
        await killer.close()
        await store.close()
    }

    /// A statement that failed fails its write, even when the body caught its error: PostgreSQL
    /// would answer the COMMIT of the failed transaction with a rollback, and the write would
    /// seem to have succeeded.
    @Test func aFailedStatementFailsItsWriteEvenWhenCaught() async throws {
        let (store, url) = try await Self.store(timeout: .seconds(30))
        do {
            try await store.write { db throws(StoreError) in
                try await db.execute("INSERT INTO items (title) VALUES (?)", ["kept?"])
                try? await db.execute("INSERT INTO no_such_table VALUES (1)")
            }
            Issue.record("the write said it succeeded")
        } catch {
            // The statement's own error, not the "transaction is aborted" of the next one.
            guard case .statement(let why) = error, why.contains("no_such_table") else { Issue.record("\(error)"); return }
        }
        try await StoreTests.insert(store, "next")
        #expect(try await Self.titles(url) == ["next"])
        // A body that throws its own error after a statement that succeeded: rolled back, and
        // the one connection lent again outside that transaction (else "after" commits it).
        do {
            try await store.write { db throws(StoreError) in
                try await db.execute("INSERT INTO items (title) VALUES (?)", ["thrown"])
                throw StoreError.constraintViolated("the app's own rule")
            }
            Issue.record("the write said it succeeded")
        } catch {}
        try await StoreTests.insert(store, "after")
        #expect(try await Self.titles(url) == ["next", "after"])
        await store.close()
    }
}
#endif
