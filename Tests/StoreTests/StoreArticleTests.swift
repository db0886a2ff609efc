import Foundation
import PostgresTestSupport
import Signals
import SignalsTesting
import Store
import Testing
import WebUITestSupport

#if SQLite
/// Store's article "Keeping data in a database": its code (StoreArticleCode.swift) run as the
/// article says it behaves.
@Suite struct StoreArticleTests {
    @Test func articleCodeIsInTheTests() throws {
        let (count, missing) = try ArticleCode.blocksMissing(
            from: ["Tests/StoreTests/StoreArticleCode.swift", "Tests/StoreTests/StoreArticleTests.swift"],
            article: "Sources/Store/Store.docc/KeepingDataInADatabase.md"
        )
        #expect(count == 6)
        for block in missing {
            Issue.record("this block of KeepingDataInADatabase.md is in neither StoreArticleCode.swift nor StoreArticleTests.swift:\n\(block)")
        }
    }

    /// The article's keyed write: applied once, however often tried with its key.
    @Test func aKeyedAddAppliesOnce() async throws {
        let store = try await Store.sqliteInMemory(migrations: Shelf.migrations)
        let key = "add-\(UUID())"                                  // made once, when the person pressed Add
        let added = try await store.write(once: key) { db throws(StoreError) in
            try await db.execute("INSERT INTO books (title, read) VALUES (?, 0)", ["Middlemarch"])
        }                                                          // a retry with `key`: false, nothing added
        #expect(added)
        #expect(try await store.write(once: key) { db throws(StoreError) in
            try await db.execute("INSERT INTO books (title, read) VALUES (?, 0)", ["Middlemarch"])
        } == false)
        #expect(try await store.fetch(Shelf.all).map(\.title) == ["Middlemarch"])
        await store.close()
    }

    @Test func aBookAddedShowsInTheListAndTheTitleIsCleared() async throws {
        let scheduler = TestScheduler()
        let store = try await Store.sqliteInMemory(migrations: Shelf.migrations, scheduler: scheduler)
        let shelf = ShelfViewModel(store: store)

        shelf.newTitle.value = "Middlemarch"
        shelf.add.execute()
        await store.settled()
        scheduler.run()

        #expect(shelf.books.value.map(\.title) == ["Middlemarch"])
        #expect(shelf.left.value == "1 to read")
        #expect(shelf.newTitle.value == "")
    }

    @Test func aFileIsCreatedAndOpenedAgain() async throws {
        let path = NSTemporaryDirectory() + "shelf-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try await Store.sqlite(path: path, migrations: Shelf.migrations)
            let shelf = ShelfViewModel(store: store)
            shelf.newTitle.value = "Persuasion"
            shelf.add.execute()
            await store.settled()
            await store.close()
        }
        let again = try await Store.sqlite(path: path, migrations: Shelf.migrations, watchInterval: nil)
        #expect(try await again.fetch(Shelf.all).map(\.title) == ["Persuasion"])
        await again.close()
    }

    #if PostgreSQL
    /// The same view model on PostgreSQL, two instances: a book added through one shows in the
    /// other's list.
    @Test(.enabled(if: PostgresCluster.available || PostgresCluster.required)) func theShelfOnPostgreSQL() async throws {
        let cluster = try await PostgresCluster.made()
        let url = cluster.url
        let store = try await Store.postgres(url: url, migrations: Shelf.migrations)
        let shelf = ShelfViewModel(store: store)
        let other = ShelfViewModel(store: try await Store.postgres(url: url, migrations: Shelf.migrations, requestTimeout: .seconds(60)))
        // Tried again if refused: beside the whole suite on two cores, a request can miss the
        // store's five-second timeout.
        var shown = false
        for _ in 0..<3 where !shown {
            shelf.newTitle.value = "Emma"
            shelf.add.execute()
            shown = await StoreTests.eventually(20) { other.books.value.map(\.title) == ["Emma"] }
        }
        #expect(shown)
        #expect(other.left.value == "1 to read")
        await store.close()
    }
    #endif

    @Test func aTitleTheShelfHasIsRefusedAndKept() async throws {
        let store = try await Store.sqliteInMemory(migrations: Shelf.migrations)
        let shelf = ShelfViewModel(store: store)
        let errors = Recorder<StoreError, Never>()
        errors.subscribe(to: shelf.add.errors)
        for _ in 0..<2 {
            shelf.newTitle.value = "Middlemarch"
            shelf.add.execute()
            await store.settled()
        }
        #expect(shelf.newTitle.value == "Middlemarch")
        #expect(errors.recordedValues.count == 1)
        #expect(errors.recordedValues.first?.message.hasPrefix("The change was refused by the database") == true)
        let books = try await store.fetch(Shelf.all)
        shelf.markRead(books[0])
        await store.settled()
        #expect(shelf.left.value == "0 to read")
        #expect(try await store.fetch(Shelf.unread(matching: "march")) == [])
        #expect(shelf.databaseNotice.value == nil)
    }
}
#endif
