#if WebServer
import Accounts
#endif
import ArgumentParser
import Login
import ShowcaseCore
import Signals
import TodoList

/// Where the showcase in the terminal keeps the to-do app's list (`--database`, issue 42): the
/// browser's default, todos.sqlite in the working directory, when the build has a store engine
/// (the SQLite trait; WebServer brings it); in memory in a build without one.
enum TerminalTodos {
    /// The list the to-do app opens with, the login app's service on real accounts in the same
    /// database (a build with the WebServer trait), and the lines that say where they are kept.
    static func open(_ database: String?, importing json: String?) async throws
        -> (SharedTodos, (@Sendable (any Scheduler) -> any LoginService)?, [String]) {
        #if WebServer
        let said = Locked<[String]>([])
        let (list, store) = try await TodoDatabase.openShared(database ?? TodoDatabase.defaultLocation, adding: Accounts.migrations, importing: json) { line in
            said.withLock { $0.append(line) }
        }
        let accounts = Accounts(store: store, limits: AccountsLoginService.limits)
        let service = AccountsLoginService.makers(accounts: accounts)
        let login: @Sendable (any Scheduler) -> any LoginService = { scheduler in
            service(AccountClient(browser: nil, address: nil), scheduler)
        }
        return (list, login, said.value)
        #elseif SQLite
        let said = Locked<[String]>([])
        let list = try await TodoDatabase.openList(database ?? TodoDatabase.defaultLocation, importing: json) { line in
            said.withLock { $0.append(line) }
        }
        return (list, nil, said.value)
        #else
        try checkInMemory(database, json)
        return (SharedTodos(), nil, ["the to-do list was kept in memory: a build with the SQLite trait (swift run --traits WebServer showcase todo) keeps it in todos.sqlite"])
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
