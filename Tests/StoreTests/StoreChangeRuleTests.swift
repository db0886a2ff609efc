import Foundation
import Signals
import SignalsTesting
import Testing
#if PostgreSQL && SQLite
import PostgresTestSupport
#endif
@testable import Store

#if SQLite
/// Issue 57, the rules on the less-travelled paths of the store's change notifications: a
/// transaction that writes two tables, and (PostgreSQL) a listener whose connection is cut.
@Suite struct StoreChangeRuleTests {
    typealias Item = StoreTests.Item

    static func allNotes(counting runs: Locked<Int>) -> Query<[String]> {
        Query("SELECT text FROM notes ORDER BY id", reads: ["notes"]) { rows throws(StoreError) in
            runs.withLock { $0 += 1 }
            return try rows.map { row throws(StoreError) in try row.text("text") }
        }
    }

    /// One transaction writes two tables: each table's observed query runs again, once (the
    /// engine reports every table a transaction changed, not the last one it wrote).
    @Test(arguments: StoreTests.Engine.available) func aTransactionThatWritesTwoTablesRerunsEachTablesQueriesOnce(engine: StoreTests.Engine) async throws {
        let store = try await StoreTests.store(engine)
        let itemRuns = Locked(0), noteRuns = Locked(0)
        let items = Recorder<[Item], StoreError>(), notes = Recorder<[String], StoreError>()
        items.subscribe(to: store.observe(StoreTests.allItems(counting: itemRuns)))
        notes.subscribe(to: store.observe(Self.allNotes(counting: noteRuns)))
        await store.settled()
        try await store.write { db throws(StoreError) in
            try await db.execute("INSERT INTO items (title) VALUES (?)", [.text("Milk")])
            try await db.execute("INSERT INTO notes (text) VALUES (?)", [.text("buy milk")])
            try await db.execute("INSERT INTO items (title) VALUES (?)", [.text("Eggs")])
        }
        await store.settled()
        #expect(items.recordedValues.map { $0.map(\.title) } == [[], ["Milk", "Eggs"]])
        #expect(notes.recordedValues == [[], ["buy milk"]])
        #expect(itemRuns.value == 2 && noteRuns.value == 2, "items ran \(itemRuns.value) times, notes \(noteRuns.value)")
        await store.close()
    }
}

#if PostgreSQL
/// PostgreSQL's listener: one connection of each store `LISTEN`s; when it is cut (a restart of
/// a proxy, an administrator's `pg_terminate_backend`, a network blip) it connects again, and
/// what was written meanwhile is not missed.
@Suite(.enabled(if: PostgresCluster.available || PostgresCluster.required, "PostgreSQL is not installed"), .serialized)
struct PostgresListenerRuleTests {
    static let listeners = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"

    /// While the listener is away, a look says the database is unavailable; the first look after
    /// it listens again says anything may have changed (an empty set: every query runs again),
    /// since notifications sent meanwhile went to nobody. Looked at only after the listener is
    /// back, so that the store's own recovery (every query again when the status comes back)
    /// does not stand in for the rule.
    @Test func theFirstLookAfterTheListenerConnectsAgainSaysAnythingMayHaveChanged() async throws {
        let cluster = try await PostgresCluster.made()
        let engine = PostgresEngine(address: try PostgresEngine.Address(cluster.url), connections: 2, requestTimeout: .seconds(30))
        try await engine.prepare(StoreTests.migrations)
        #expect(try await engine.changesElsewhere() == nil)  // listening, nothing changed
        try await PostgresCluster.blocking { try cluster.psql(Self.listeners) }
        // Away: seen within 10 s (the listener's connection ends with an error it reads).
        var away = false
        for _ in 0..<2_000 where !away {
            do throws(StoreError) {
                _ = try await engine.changesElsewhere()
                try? await Task.sleep(for: .milliseconds(5))
            } catch {
                away = error.isTransient
            }
        }
        #expect(away, "the listener's end was never seen")
        // Back (it waits 100 ms, then connects): the first answer is "anything".
        var first: Set<String>?? = .none
        for _ in 0..<2_000 where first == nil {
            if let seen = try? await engine.changesElsewhere() { first = .some(seen) } else { try? await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(first == .some([]), "the first look after the listener came back: \(String(describing: first))")
        // And then it follows again: nothing new is nothing.
        #expect(try await engine.changesElsewhere() == nil)
        await engine.close()
    }

    /// End to end: a row written elsewhere in the moment the listener is cut (its notification
    /// sent to nobody) shows in the store's observed query once the listener is back.
    @Test func aWriteWhileTheListenerIsCutShowsOnceItIsBack() async throws {
        let cluster = try await PostgresCluster.made()
        let store = try await Store.postgres(url: cluster.url, migrations: StoreTests.migrations, requestTimeout: .seconds(30))
        let items = store.property(StoreTests.allItems(), initial: [])
        try await StoreTests.insert(store, "Milk")
        #expect(await StoreTests.eventually { items.value.map(\.title) == ["Milk"] })
        // The listener is cut inside the writing transaction, 50 ms before its COMMIT sends the
        // notification; the listener connects again 100 ms after it ended, at the earliest.
        try await PostgresCluster.blocking { try cluster.psql("BEGIN; INSERT INTO items (title) VALUES ('Bread'); \(Self.listeners); SELECT pg_sleep(0.05); COMMIT;") }
        #expect(await StoreTests.eventually(20) { items.value.map(\.title) == ["Milk", "Bread"] }, "\(items.value.map(\.title))")
        #expect(await StoreTests.eventually(20) { store.status.value.isAvailable })
        // And it follows writes again.
        try await PostgresCluster.blocking { try cluster.psql("INSERT INTO items (title) VALUES ('Tea')") }
        #expect(await StoreTests.eventually(20) { items.value.map(\.title) == ["Milk", "Bread", "Tea"] }, "\(items.value.map(\.title))")
        await store.close()
    }
}
#endif
#endif
