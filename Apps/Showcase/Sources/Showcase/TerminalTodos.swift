import ArgumentParser
import Signals
import TodoList

/// Where the showcase in the terminal keeps the to-do app's list (`--database`, issue 42): the
/// browser's default, todos.sqlite in the working directory, when the build has a store engine
/// (the SQLite trait; WebServer brings it); in memory in a build without one.
enum TerminalTodos {
    /// The list the to-do app opens with, and the lines that say where it is kept.
    static func open(_ database: String?, importing json: String?) async throws -> (SharedTodos, [String]) {
        #if SQLite
        let said = Locked<[String]>([])
        let list = try await TodoDatabase.openList(database ?? TodoDatabase.defaultLocation, importing: json) { line in
            said.withLock { $0.append(line) }
        }
        return (list, said.value)
        #else
        try checkInMemory(database, json)
        return (SharedTodos(), ["the to-do list was kept in memory: a build with the SQLite trait (swift run --traits WebServer showcase todo) keeps it in todos.sqlite"])
        #endif
    }

    /// The list as the database has it now, for plain mode (which only reads: a file that does
    /// not exist is an empty list, and is not created).
    static func snapshot(_ database: String?) async throws -> SharedTodos {
        #if SQLite
        return try await TodoDatabase.snapshot(database ?? TodoDatabase.defaultLocation)
        #else
        try checkInMemory(database, nil)
        return SharedTodos()
        #endif
    }

    #if !SQLite
    private static func checkInMemory(_ database: String?, _ json: String?) throws {
        if json != nil || (database != nil && database != ":memory:") {
            throw ValidationError("this build has no store engine, so the to-do list is kept in memory only: build with the SQLite trait (swift run --traits WebServer showcase todo --database …; WebServer brings it)")
        }
    }
    #endif
}
