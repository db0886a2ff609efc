import Foundation
import Signals
import SignalsTesting
import Store
import Testing

/// Issue 42: queries observed as properties, re-run by the writes that change what they read.
@Suite struct StoreTests {
    struct Item: Sendable, Equatable {
        var id: Int
        var title: String
        var done: Bool
    }

    static let migrations = [
        Migration("1-items", ["CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, done INTEGER NOT NULL DEFAULT 0)"]),
        Migration("2-notes", ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"]),
    ]

    /// Every item, counting how often the query ran (its decoding runs once per run).
    static func allItems(counting runs: Locked<Int>? = nil) -> Query<[Item]> {
        Query("SELECT id, title, done FROM items ORDER BY id", reads: ["items"]) { rows throws(StoreError) in
            runs?.withLock { $0 += 1 }
            return try rows.map { row throws(StoreError) in
                Item(id: try row.int("id"), title: try row.text("title"), done: try row.bool("done"))
            }
        }
    }

    static func insert(_ store: Store, _ titles: String...) async throws(StoreError) {
        try await store.write { db throws(StoreError) in
            for title in titles { try await db.execute("INSERT INTO items (title) VALUES (?)", [.text(title)]) }
        }
    }

    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "store-\(UUID().uuidString).sqlite"
    }

    /// Waits (up to `seconds`) until `condition` holds.
    static func eventually(_ seconds: Double = 10, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test func aPropertyFollowsTheTableOneValuePerTransaction() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        let runs = Locked(0)
        let recorder = Recorder<[Item], StoreError>()
        recorder.subscribe(to: store.observe(Self.allItems(counting: runs)))
        await store.settled()
        #expect(recorder.recordedValues == [[]])
        // Three rows in one transaction: one new result, not three.
        try await Self.insert(store, "Milk", "Eggs", "Bread")
        await store.settled()
        #expect(recorder.recordedValues.map { $0.map(\.title) } == [[], ["Milk", "Eggs", "Bread"]])
        #expect(runs.value == 2)
        // A write to a table it does not read runs nothing.
        try await store.write { db throws(StoreError) in try await db.execute("INSERT INTO notes (text) VALUES ('x')") }
        await store.settled()
        #expect(runs.value == 2)
        // Updates and deletes, the delete without WHERE too (SQLite's update hook misses that one).
        try await store.write { db throws(StoreError) in try await db.execute("UPDATE items SET done = 1 WHERE title = 'Eggs'") }
        try await store.write { db throws(StoreError) in try await db.execute("DELETE FROM items") }
        await store.settled()
        #expect(recorder.recordedValues.count == 4)
        #expect(recorder.recordedValues[2].first { $0.title == "Eggs" }?.done == true)
        #expect(recorder.recordedValues[3] == [])
        await store.close()
    }

    @Test func aDisposedObservationRunsNoMore() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        let runs = Locked(0)
        var property: Property<[Item]>? = store.property(Self.allItems(counting: runs), initial: [])
        await store.settled()
        try await Self.insert(store, "Milk")
        await store.settled()
        #expect(property?.value.map(\.title) == ["Milk"])
        #expect(runs.value == 2)
        property = nil
        try await Self.insert(store, "Eggs")
        await store.settled()
        #expect(runs.value == 2)
        _ = property
        await store.close()
    }

    /// Writes from many tasks at once: each observer's results only ever grow (never an older
    /// list after a newer one) and end at the last.
    @Test func neverAnOlderResultAfterANewerOne() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        let recorder = Recorder<[Item], StoreError>()
        recorder.subscribe(to: store.observe(Self.allItems()))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { try await Self.insert(store, "item \(index)") }
            }
            try await group.waitForAll()
        }
        await store.settled()
        let counts = recorder.recordedValues.map(\.count)
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
        #expect(counts.last == 50)
        await store.close()
    }

    /// Writes submitted from synchronous code, one after another, run in that order (a tick then
    /// an untick never swap): 200 inserts submitted in a loop get ids in the loop's order.
    @Test func submittedWritesRunInTheOrderSubmitted() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        for index in 0..<200 {
            store.submit { db throws(StoreError) in try await db.execute("INSERT INTO items (title) VALUES (?)", [.text("\(index)")]) }
        }
        await store.settled()
        let titles = try await store.fetch(Self.allItems()).map(\.title)
        #expect(titles == (0..<200).map { "\($0)" })
        await store.close()
    }

    @Test func aFailedTransactionKeepsNothingAndSaysWhy() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        try await Self.insert(store, "Milk")
        let runs = Locked(0)
        let items = store.property(Self.allItems(counting: runs), initial: [])
        await store.settled()
        await #expect(throws: StoreError.self) {
            try await Self.insert(store, "Eggs", "Milk")  // the second breaks UNIQUE
        }
        do {
            try await Self.insert(store, "Milk")
            Issue.record("a duplicate title was accepted")
        } catch {
            guard case .constraintViolated(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("UNIQUE"))
            #expect(error.message.hasPrefix("The change was refused by the database"))
        }
        await store.settled()
        #expect(items.value.map(\.title) == ["Milk"])
        #expect(try await store.fetch(Self.allItems()).map(\.title) == ["Milk"])
        await store.close()
    }

    /// A query that reads a table it does not declare is found the first time it runs: a write
    /// there would never run it again.
    @Test func aQueryMustDeclareEveryTableItReads() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        let joined = Query<Int>("SELECT count(*) AS n FROM items JOIN notes ON notes.id = items.id", reads: ["items"]) { rows throws(StoreError) in
            try rows[0].int("n")
        }
        do {
            _ = try await store.fetch(joined)
            Issue.record("an undeclared read passed")
        } catch {
            guard case .statement(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("notes"))
        }
        let recorder = Recorder<Int, StoreError>()
        recorder.subscribe(to: store.observe(joined))
        await store.settled()
        #expect(recorder.failure != nil)
        let declared = Query<Int>("SELECT count(*) AS n FROM items JOIN notes ON notes.id = items.id", reads: ["items", "NOTES"]) { rows throws(StoreError) in
            try rows[0].int("n")
        }
        #expect(try await store.fetch(declared) == 0)
        await store.close()
    }

    @Test func rowsSayWhichColumnDidNotRead() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        try await Self.insert(store, "Milk")
        let wrong = Query<Int>("SELECT title FROM items", reads: ["items"]) { rows throws(StoreError) in try rows[0].int("title") }
        await #expect(throws: StoreError.decoding("column \"title\" is text, not an integer")) { try await store.fetch(wrong) }
        let missing = Query<Int>("SELECT title FROM items", reads: ["items"]) { rows throws(StoreError) in try rows[0].int("id") }
        await #expect(throws: StoreError.decoding("the row has no column \"id\" (it has \"title\")")) { try await store.fetch(missing) }
        await store.close()
    }

    @Test func migrationsRunOnceInOrderAndANewerDatabaseIsLeftAlone() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try await Store.sqlite(path: path, migrations: [Self.migrations[0]], watchInterval: nil)
        try await Self.insert(first, "Milk")
        await first.close()
        // Opened again with one more: the first is not run again (the row is still there).
        let second = try await Store.sqlite(path: path, migrations: Self.migrations, watchInterval: nil)
        #expect(try await second.fetch(Self.allItems()).map(\.title) == ["Milk"])
        await second.close()
        // An older app (it knows only the first migration) refuses the newer database.
        await #expect(throws: StoreError.newerDatabase(unknownMigrations: ["2-notes"])) {
            _ = try await Store.sqlite(path: path, migrations: [Self.migrations[0]], watchInterval: nil)
        }
        // A migration that fails leaves the ones before it applied, and names itself.
        let broken = Self.migrations + [Migration("3-broken", ["CREATE TABLE extra (id INTEGER)", "CREATE TABLE items (x)"])]
        do {
            _ = try await Store.sqlite(path: path, migrations: broken, watchInterval: nil)
            Issue.record("a broken migration passed")
        } catch {
            guard case .migrationFailed(let id, _) = error else { Issue.record("\(error)"); return }
            #expect(id == "3-broken")
        }
        let again = try await Store.sqlite(path: path, migrations: Self.migrations, watchInterval: nil)
        let tables = Query<[String]>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", reads: []) { rows throws(StoreError) in
            try rows.map { row throws(StoreError) in try row.text("name") }
        }
        #expect(try await again.fetch(tables) == ["items", "notes", "store_migrations"])
        await again.close()
    }

    @Test func aFileThatCannotBeOpenedIsUnavailableWithItsPath() async throws {
        do {
            _ = try await Store.sqlite(path: "/nonexistent-folder-\(UUID().uuidString)/todos.sqlite")
            Issue.record("opened")
        } catch {
            guard case .unavailable(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("nonexistent-folder"))
            #expect(error.isTransient)
        }
    }

    /// Two stores on one file, as two server instances on one disk: a write through one shows
    /// in the other's observed property (SQLite's data_version, looked at every 20 ms here).
    @Test func aWriteInAnotherProcessShowsWithinTheWatchInterval() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try await Store.sqlite(path: path, migrations: Self.migrations, watchInterval: .milliseconds(20))
        let second = try await Store.sqlite(path: path, migrations: Self.migrations, watchInterval: .milliseconds(20))
        let seen = second.property(Self.allItems(), initial: [])
        try await Self.insert(first, "Milk")
        #expect(await Self.eventually { seen.value.map(\.title) == ["Milk"] })
        try await Self.insert(second, "Eggs")
        let there = first.property(Self.allItems(), initial: [])
        #expect(await Self.eventually { there.value.map(\.title) == ["Milk", "Eggs"] })
        await first.close()
        await second.close()
    }

    /// Results go through the store's scheduler: in virtual time, nothing arrives until the test
    /// lets the scheduler run.
    @Test func resultsArriveOnTheStoresScheduler() async throws {
        let scheduler = TestScheduler()
        let store = try await Store.sqliteInMemory(migrations: Self.migrations, scheduler: scheduler)
        let items = store.property(Self.allItems(), initial: [Item(id: 0, title: "placeholder", done: false)])
        try await Self.insert(store, "Milk")
        await store.settled()
        #expect(items.value.map(\.title) == ["placeholder"])
        scheduler.run()
        #expect(items.value.map(\.title) == ["Milk"])
        await store.close()
    }

    @Test func aClosedStoreSaysSo() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        await store.close()
        await #expect(throws: StoreError.closed) { try await Self.insert(store, "Milk") }
        await #expect(throws: StoreError.closed) { _ = try await store.fetch(Self.allItems()) }
    }
}
