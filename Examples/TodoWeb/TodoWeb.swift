import Accounts
import ArgumentParser
import Foundation
import MVVM
import Signals
import Store
import TodoList
import WebUI
#if WebServer
import WebServer
#endif

/// `todo-web`: the to-do example as a web app of its own, the way a user deploys one. Its list is
/// kept in a SQLite file (`--database`, `todos.sqlite` by default) and shared by every tab, and by
/// every instance given the same file; the
/// screen is `TodoScreens.list`, described once; its address says the filter and the search
/// (`/?filter=active&q=milk`), so a reload or a bookmark shows the same list.
///
///     swift run --traits WebServer todo-web --port 8080
///     todo-web --port 8081 --path /todo --trusted-proxy 127.0.0.1 --database /var/lib/todo/todos.sqlite
@main
struct TodoWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo-web",
        abstract: "The to-do list in the browser: one list every tab shares, live."
    )

    @Option(help: "The address to listen on (loopback by default).")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port).")
    var port: UInt16 = 8080

    @Option(help: "The path the app is mounted under behind a reverse proxy (/todo); its page, files and socket are under it.")
    var path = ""

    @Option(help: "A host name of the public address (behind a proxy), answered besides the listening address's. Repeatable.")
    var publicHost: [String] = []

    @Option(help: "The address of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed. Repeatable.")
    var trustedProxy: [String] = []

    @Option(help: "Where the list is kept: a SQLite file, shared by every instance given the same file (created if missing); postgres://user@host/database, shared by every instance on that server (a build with the PostgreSQL trait); or :memory: (this process only).")
    var database = TodoDatabase.defaultLocation

    @Option(help: "A JSON list kept by an earlier version (its --todo-file): imported into the database on first start, when the database has no to-dos.")
    var todoFile: String?

    @Option(help: "Seconds a session waits for its page to reconnect before it is closed.")
    var sessionGrace = 30

    @Option(help: "The token /stats asks for; without it there is no /stats.")
    var statsToken: String?

    @Option(help: "The most sessions (tabs) open at once.")
    var maxSessions = 200

    @Option(help: "The most connections open at once (pages, their files, WebSockets); by default as many as the process's file limit allows.")
    var maxConnections: Int?

    @Option(help: "How many event loops serve the connections: threads that read and write the sockets (at least 1); by default half the cores, at least 1 (the sessions take their turns on every core either way; on 2 cores one loop answered 15,000 typing tabs with a lower p99 and less CPU per edit than two).")
    var eventLoops: Int?

    @Flag(help: "Each person signs up or in and keeps a list of their own (their account kept in the same database); every address but /sign-in and /sign-up needs a signed-in user.")
    var accounts = false

    @Flag(help: "Run every tab's session on the main actor, as an app whose view models are @MainActor must: one thread for all of them (to compare; each has an executor of its own otherwise).")
    var mainActor = false

    func validate() throws {
        guard sessionGrace >= 0 else { throw ValidationError("--session-grace must be 0 or more seconds") }
        guard maxSessions >= 1 else { throw ValidationError("--max-sessions must be at least 1") }
        guard (maxConnections ?? 1) >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard (eventLoops ?? 1) >= 1 else { throw ValidationError("--event-loops must be at least 1") }
        guard !(accounts && mainActor) else { throw ValidationError("--accounts runs each tab on an executor of its own: leave out --main-actor") }
        guard !(accounts && todoFile != nil) else { throw ValidationError("--todo-file imports the shared list: it cannot be used with --accounts") }
    }

    #if WebServer
    func run() async throws {
        let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("todo-web: \($0)\n".utf8)) }
        if accounts { return try await runWithAccounts(log: log) }
        let list: SharedTodos
        do {
            list = try await TodoDatabase.openList(database, importing: todoFile, log: log)
        } catch {
            log("cannot open the list: \(error)")
            throw ExitCode(1)
        }
        let limits = WebSessions.Limits(sessions: maxSessions, reconnectGrace: .seconds(sessionGrace))
        // Each tab opens at the address it asked for (TodoAddresses, beside the screen), and the
        // address bar follows the filter and the search. Each tab's session runs on an executor
        // of its own: the to-do's view models are not tied to the main actor.
        let screens: @Sendable (ScreenRegistry<NavigationStack.Page>) -> Void = { screens in
            screens.register(TodoListViewModel.self, described: TodoScreens.list)
        }
        let sessions = mainActor
            ? await WebSessions(onMainActor: TodoAddresses.self, services: list, limits: limits, log: log, screens: screens)
            : WebSessions(addresses: TodoAddresses.self, services: list, limits: limits, log: log, screens: screens)
        try await serve(sessions, log: log)
    }

    /// `--accounts`: each person's own list, behind sign-in; their accounts in the same database.
    private func runWithAccounts(log: @escaping @Sendable (String) -> Void) async throws {
        let store: Store
        do {
            store = try await TodoDatabase.openStore(database, adding: Accounts.migrations, log: log)
        } catch {
            log("cannot open the lists: \(error)")
            throw ExitCode(1)
        }
        let accounts = Accounts(store: store)
        let lists = TodoLists(store: store)
        let limits = WebSessions.Limits(sessions: maxSessions, reconnectGrace: .seconds(sessionGrace))
        let sessions = WebSessions(addresses: TodoAccountAddresses.self, servicesPerTab: { tab in
            TodoAccountServices(lists: lists, accounts: AccountServices(account: tab.account(accounts), navigator: tab.navigator))
        }, limits: limits, log: log) { screens in
            screens.register(TodoListViewModel.self, described: TodoScreens.list)
            screens.register(SignInViewModel.self, described: AccountScreens.signIn)
            screens.register(SignUpViewModel.self, described: AccountScreens.signUp)
            screens.register(AccountViewModel.self, described: AccountScreens.account)
        }
        try await serve(sessions, log: log) { server in
            server.useAccounts(accounts, signInPath: "/sign-in") { TodoAccountAddresses.requiresSignIn($0.path) }
        }
    }

    /// Serves `sessions` until SIGTERM or Ctrl-C.
    private func serve(_ sessions: WebSessions, log: @escaping @Sendable (String) -> Void, setUp: (WebAppServer) -> Void = { _ in }) async throws {
        let server = try WebAppServer(
            host: host, port: port, sessions: sessions, limits: WebAppServer.Limits(connections: maxConnections ?? .max),
            deployment: WebAppServer.Deployment(hostNames: publicHost, trustedProxies: trustedProxy, path: path),
            statsToken: statsToken, eventLoops: eventLoops ?? WebAppServer.halfTheCores, log: log
        )
        setUp(server)
        server.route("/health") { _ in .text("ok") }
        let host = self.host, path = self.path
        Task {
            let listening = try await server.waitUntilListening()
            let shown = host.contains(":") ? "[\(host)]" : host
            FileHandle.standardOutput.write(Data("To-dos at http://\(shown):\(listening)\(path)/ (Ctrl-C to stop)\n".utf8))
        }
        // SIGTERM (systemd, Docker) or Ctrl-C: the server stops gracefully (each page's socket closed
        // with 1001; the pages reconnect when it is back) and the process exits 0.
        try await server.run(stoppingOn: [SIGTERM, SIGINT])
    }
    #else
    func run() async throws {
        FileHandle.standardError.write(Data("todo-web needs the package's WebServer trait: swift run --traits WebServer todo-web\n".utf8))
        throw ExitCode(64)
    }
    #endif
}
