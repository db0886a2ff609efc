import Foundation
import Store

/// The to-do list in a database (issue 42): its tables, its queries, and the import of a list
/// kept by an earlier version in a JSON file.
///
/// ```swift
/// let store = try await Store.sqlite(path: "todos.sqlite", migrations: TodoDatabase.migrations)
/// let list = SharedTodos(store: store)       // every tab, every instance on this file
/// ```
public enum TodoDatabase {
    /// The schema: the to-dos, and the to-dos as the Save button last saved them.
    public static let migrations = [
        Migration("1-todos", [
            "CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)",
            "CREATE TABLE saved_todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL)",
        ]),
    ]

    /// Every to-do, in the order they were added.
    public static let all = todos(in: "todos")
    /// The to-dos as last saved.
    public static let saved = todos(in: "saved_todos")

    private static func todos(in table: String) -> Query<[Todo]> {
        Query("SELECT id, title, done FROM \(table) ORDER BY id", reads: [table]) { rows throws(StoreError) in
            try rows.map { row throws(StoreError) in
                Todo(id: try row.int("id"), title: try row.text("title"), isDone: try row.bool("done"))
            }
        }
    }

    /// Why a JSON list could not be imported.
    public struct ImportError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Imports the list in the JSON file at `path` (written by `--todo-file` before there was a
    /// database) into `store`, if the database has no to-dos yet; returns how many it imported
    /// (0 when the database already had to-dos or the file has none). Two instances starting at
    /// once import it once: the check and the inserts are one transaction.
    public static func importJSON(at path: String, into store: Store) async throws -> Int {
        struct Stored: Decodable {
            struct Item: Decodable { var id: Int; var title: String; var done: Bool }
            var todos: [Item]
            var saved: [Item]?
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(description: "\(path) cannot be read")
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            throw ImportError(description: "\(path) is not a to-do list (\(data.count) bytes that are not its JSON)")
        }
        return try await store.write { db throws(StoreError) -> Int in
            guard try await db.fetch("SELECT id FROM todos LIMIT 1").isEmpty else { return 0 }
            for (table, items) in [("todos", stored.todos), ("saved_todos", stored.saved ?? [])] {
                for item in items {
                    try await db.execute(
                        "INSERT INTO \(table) (id, title, done) VALUES (?, ?, ?)",
                        [StoreValue(item.id), StoreValue(item.title), StoreValue(item.done)]
                    )
                }
            }
            return stored.todos.count
        }
    }
}

#if SQLite
extension TodoDatabase {
    /// Where `--database` keeps the list by default: `todos.sqlite` in the working directory.
    public static let defaultLocation = "todos.sqlite"

    /// The list a `--database` option names: a SQLite file's path (`todos.sqlite`, or
    /// `sqlite:/var/lib/todo/todos.sqlite`), or `:memory:` for a list in this process only.
    /// With `importing`, a JSON list an earlier version kept (`--todo-file`) is imported into
    /// an empty database first. `log` hears where the list is kept and what was imported.
    public static func openList(
        _ database: String, importing json: String? = nil, log: @escaping @Sendable (String) -> Void
    ) async throws -> SharedTodos {
        if database == ":memory:" {
            if json != nil { throw ImportError(description: "--todo-file imports into a database: give --database a file, not :memory:") }
            log("the to-do list is kept in memory (gone when the server stops)")
            return SharedTodos()
        }
        if database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") {
            throw ImportError(description: "PostgreSQL databases are not supported yet; give --database a SQLite file's path")
        }
        let path = database.hasPrefix("sqlite:") ? String(database.dropFirst("sqlite:".count)) : database
        let store = try await Store.sqlite(path: path, migrations: migrations)
        if let json {
            let count = try await importJSON(at: json, into: store)
            log(count > 0 ? "imported \(count) to-dos from \(json) into \(path)" : "\(path) already has to-dos: \(json) was not imported")
        }
        log("the to-do list is kept in \(absolute(path))")
        return SharedTodos(store: store)
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
#endif
