import Foundation
import PostgresTestSupport
import Store
import Testing

/// Issue 60: rows read into `Decodable` values by column name, on both engines: every type a
/// column holds, NULL and a column not selected for an optional, a renamed key, an enum by its
/// raw value, bytes; a wrong type, a NULL for a value, a missing column and an integer that does
/// not fit each say which column.
@Suite struct RowDecodingTests {
    enum Shelf: String, Decodable, Sendable { case fiction, poetry }

    struct Book: Decodable, Sendable, Equatable {
        let id: Int
        let title: String
        let isRead: Bool
        let rating: Double
        let note: String?
        let shelf: Shelf
        let cover: [UInt8]
        let pages: Int16
        let missing: String?

        enum CodingKeys: String, CodingKey {
            case id, title, isRead = "is_read", rating, note, shelf, cover, pages, missing
        }
    }

    static let migrations = [
        Migration(
            "1-books",
            sqlite: ["CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, is_read INTEGER NOT NULL, rating REAL NOT NULL, note TEXT, shelf TEXT NOT NULL, cover BLOB NOT NULL, pages INTEGER NOT NULL)"],
            postgres: ["CREATE TABLE books (id BIGINT PRIMARY KEY, title TEXT NOT NULL, is_read BOOLEAN NOT NULL, rating DOUBLE PRECISION NOT NULL, note TEXT, shelf TEXT NOT NULL, cover BYTEA NOT NULL, pages BIGINT NOT NULL)"]
        ),
    ]

    static let books = Query("SELECT id, title, is_read, rating, note, shelf, cover, pages FROM books ORDER BY id", reads: ["books"], as: Book.self)

    static func check(_ store: Store) async throws {
        try await store.write { db throws(StoreError) in
            // TRUE and FALSE: SQLite keeps 1 and 0, PostgreSQL a boolean; both read as Bool.
            try await db.execute("INSERT INTO books (id, title, is_read, rating, note, shelf, cover, pages) VALUES (1, 'Dune', TRUE, 4.5, NULL, 'fiction', ?, 32767)", [.blob([0, 255, 7])])
            try await db.execute("INSERT INTO books (id, title, is_read, rating, note, shelf, cover, pages) VALUES (2, 'Odes', FALSE, 3, 'signed', 'poetry', ?, -32768)", [.blob([])])
        }
        let books = try await store.fetch(Self.books)
        #expect(books == [
            Book(id: 1, title: "Dune", isRead: true, rating: 4.5, note: nil, shelf: .fiction, cover: [0, 255, 7], pages: 32767, missing: nil),
            Book(id: 2, title: "Odes", isRead: false, rating: 3, note: "signed", shelf: .poetry, cover: [], pages: -32768, missing: nil),
        ])
        // Each wrong column says which.
        struct Pages: Decodable, Sendable { let pages: Int8 }
        struct Title: Decodable, Sendable { let title: Int }
        struct Note: Decodable, Sendable { let note: String }
        struct Author: Decodable, Sendable { let author: String }
        struct Shelved: Decodable, Sendable { let shelf: Int }
        func failure<T: Decodable & Sendable>(_ type: T.Type, _ sql: String) async -> String {
            await Self.failure(of: Query(sql, reads: ["books"], as: T.self), in: store)
        }
        #expect(await failure(Pages.self, "SELECT pages FROM books WHERE id = 1").contains("column \"pages\" holds 32767, which does not fit Int8"))
        #expect(await failure(Title.self, "SELECT title FROM books").contains("column \"title\" is text, not an integer"))
        #expect(await failure(Note.self, "SELECT note FROM books WHERE id = 1").contains("column \"note\" is NULL"))
        #expect(await failure(Author.self, "SELECT title FROM books").contains("the row has no column \"author\""))
        #expect(await failure(Shelved.self, "SELECT shelf FROM books").contains("column \"shelf\" is text, not an integer"))
    }

    /// The message of the error fetching `query` gives ("no error" if none).
    static func failure<T: Sendable>(of query: Query<T>, in store: Store) async -> String {
        let result: Result<T, StoreError>
        do { result = .success(try await store.fetch(query)) } catch { result = .failure(error) }
        switch result {
        case .success: return "no error"
        case .failure(let error): return error.message
        }
    }

    @Test func rowsDecodeByColumnNameOnSQLite() async throws {
        let store = try await Store.sqliteInMemory(migrations: Self.migrations)
        try await Self.check(store)
        await store.close()
    }

    /// An integer column into each width: the last value that fits and the first that does not,
    /// both ways.
    @Test(arguments: [
        (Int64(Int8.max), "Int8", true), (Int64(Int8.max) + 1, "Int8", false), (Int64(Int8.min), "Int8", true), (Int64(Int8.min) - 1, "Int8", false),
        (Int64(UInt8.max), "UInt8", true), (Int64(UInt8.max) + 1, "UInt8", false), (0, "UInt8", true), (-1, "UInt8", false),
        (Int64(Int32.max), "Int32", true), (Int64(Int32.max) + 1, "Int32", false), (Int64(Int32.min), "Int32", true), (Int64(Int32.min) - 1, "Int32", false),
        (Int64.max, "Int64", true), (Int64.min, "Int64", true), (-1, "UInt64", false),
    ])
    func integersAreRangeChecked(value: Int64, width: String, fits: Bool) throws {
        let row = StoreRow(names: ["n"], values: [.integer(value)])
        struct I8: Decodable { let n: Int8 }
        struct U8: Decodable { let n: UInt8 }
        struct I32: Decodable { let n: Int32 }
        struct I64: Decodable { let n: Int64 }
        struct U64: Decodable { let n: UInt64 }
        let read: () throws -> Int64 = switch width {
        case "Int8": { Int64(try row.decode(I8.self).n) }
        case "UInt8": { Int64(try row.decode(U8.self).n) }
        case "Int32": { Int64(try row.decode(I32.self).n) }
        case "Int64": { try row.decode(I64.self).n }
        default: { Int64(truncatingIfNeeded: try row.decode(U64.self).n) }
        }
        if fits {
            #expect(try read() == value)
        } else {
            #expect(throws: StoreError.self) { try read() }
        }
    }
}

#if PostgreSQL
@Suite(.enabled(if: PostgresCluster.available || PostgresCluster.required, "PostgreSQL is not installed"), .serialized)
struct PostgresRowDecodingTests {
    static let cluster = PostgresCluster.keptForTheRun()

    @Test func rowsDecodeByColumnNameOnPostgreSQL() async throws {
        let cluster = try await PostgresCluster.offThePool { Self.cluster }.get()
        let store = try await Store.postgres(url: cluster.url, migrations: RowDecodingTests.migrations, requestTimeout: .seconds(30))
        try await RowDecodingTests.check(store)
        await store.close()
    }
}
#endif
