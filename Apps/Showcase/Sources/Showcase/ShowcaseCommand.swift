import ArgumentParser
import Foundation
import LiveHTTP
import Login
import ShowcaseCore
import ShowcaseKit
import Signals
import TerminalUI
import TodoList

@main
struct ShowcaseCommand: AsyncParsableCommand {
    // The discussion reads as written at any width: each paragraph is one line, which the
    // argument parser wraps at the terminal's width; each row of a list (indented) fits in 72
    // columns, so it is never wrapped at 80 (showcase-e2e.sh checks both).
    static let configuration = CommandConfiguration(
        commandName: "showcase",
        abstract: "The MVVM tutorials' apps, running in your terminal on MVVMKit.",
        discussion: """
        APPS
          flickr     Flickr search: recent searches, counts for visible rows
          person     People loaded by a view model; Enter opens one
          login      Login enabled at 3+3 characters
          movies     TMDb lists in tabs and a throttled search
          goods      Categories, a paged goods list and details
          goods-dc   The same goods list without bindings
          todo       A to-do list in todos.sqlite (--database)
        With no app, a launcher lists them.

        KEYS
          Tab, Shift-Tab   the next or previous field
          ↑ ↓              move in lists, the next field
          ← →              switch tabs and segments
          PgUp, PgDn       page through lists
          Enter            press, open, search
          Esc              back
          r, Ctrl-R        retry a failed movie list (a search: Ctrl-R)
          Ctrl-C           quit (the terminal is restored)

        ENVIRONMENT
        Without keys every app runs on its embedded offline catalog (no network needed); --offline ignores keys, --live asks for them.
          FLICKR_API_KEY           the live Flickr API
          TMDB_API_KEY             a TMDb v3 key or v4 read token
          TMDB_READ_ACCESS_TOKEN   a TMDb v4 read token (bearer)
          FLICKR_BASE_URL          another endpoint (a proxy, tests)
          TMDB_BASE_URL            another endpoint (a proxy, tests)

        IN THE BROWSER
        --web serves every app at http://127.0.0.1:8080/ (--host, --port). Each screen has its own address (/flickr/results?q=sunset, /movies/top-rated, /goods/2), so a reload or a bookmark opens the same screen. It needs the package's WebServer trait:
            swift run --traits WebServer showcase --web
        --latency 300 adds 300 ms to everything sent each way (a slow network); --jitter 500 adds 0 to 500 ms more at random (still in order, as over TCP). /elements shows WebUI's events from any element. Behind a proxy: --path, --public-host, --trusted-proxy; --stats-token turns /stats on.

        PLAIN MODE
        --plain (automatic when output is not a terminal) opens the app where the options say (the screens of the address they name: --search sunset is the results of that search; --password signs in) and prints the screen it ends on:
            showcase flickr --plain --search sunset
            showcase movies --plain --list popular
            showcase movies --plain --search storm
            showcase goods --plain --category 2 --page 2
            showcase login --plain --user ada --password lovelace
            showcase person --plain
            showcase todo --plain
        The movie lists are now-playing, popular, upcoming and top-rated; the other logins grace/hopper and alan/turing. Without --plain the same options choose where the app starts (showcase flickr --search sunset opens on the results of that search).

        EXIT STATUS
          0    done; the screen is on stdout
          1    the screen shows a failure (a search, a list, a login)
          64   bad arguments (an app, list, category or option)
          78   live mode cannot start (no API key, a bad base URL)
        On 1 the screen is on stdout and the message on stderr. 64 is also a search or login too short to run. On 78 nothing falls back to the offline catalog unless --offline is given.
        """
    )

    @Flag(help: "Serve every app in the browser instead (needs the package's WebServer trait: swift run --traits WebServer showcase --web).")
    var web = false

    @Option(help: "--web: the address to listen on (loopback by default; another address exposes the apps to the network).")
    var host = "127.0.0.1"

    @Option(help: "--web: the port (0: any free port).")
    var port: UInt16 = 8080

    @Option(help: "--web: seconds a session waits for its page to reconnect before it is closed.")
    var sessionGrace = 30

    @Option(help: "--web: the most sessions (tabs) open at once.")
    var maxSessions = 200

    @Option(help: "--web: the most connections open at once (pages, their files, WebSockets); by default as many as the process's file limit allows.")
    var maxConnections: Int?

    @Option(help: "--web: how many event loops serve the connections: threads that read and write the sockets (at least 1); by default half the cores, at least 1 (the sessions take their turns on every core either way; on 2 cores one loop answered 15,000 typing tabs with a lower p99 and less CPU per edit than two).")
    var eventLoops: Int?

    @Option(help: "--web: milliseconds added to every message in each direction, to feel a slow network.")
    var latency = 0

    @Option(help: "--web: the path the showcase is mounted under behind a reverse proxy (/showcase); its pages, files and socket are under it.")
    var path = ""

    @Option(help: "--web: a host name of the public address (behind a proxy), answered besides the listening address's. Repeatable.")
    var publicHost: [String] = []

    @Option(help: "--web: the address of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed (and which has no per-address connection cap). Repeatable.")
    var trustedProxy: [String] = []

    @Option(help: "--web: the token /stats (session counts) asks for, as Authorization: Bearer TOKEN or ?token=TOKEN; without it there is no /stats.")
    var statsToken: String?

    @Option(help: "--web: up to this many milliseconds more, at random, on every message each way (in order: a jittery network).")
    var jitter = 0

    @Option(help: "todo, the launcher and --web: where the to-do list is kept: a SQLite file, shared by every instance given the same file (created if missing; todos.sqlite in the working directory by default); postgres://user@host/database, shared by every instance on that server (a build with the PostgreSQL trait); or :memory: (this process only). A build without the SQLite trait (swift run showcase) keeps the list in memory.")
    var database: String?

    @Option(help: "todo, the launcher and --web: a JSON to-do list kept by an earlier version (its --todo-file): imported into the database on first start, when the database has no to-dos.")
    var todoFile: String?

    @Argument(help: "The app to open: flickr, person, login, movies, goods, goods-dc, todo.")
    var app: String?

    @Flag(help: "Use the live APIs (needs FLICKR_API_KEY or TMDB_API_KEY).")
    var live = false

    @Flag(help: "Use the embedded catalogs even with keys set; with --live, fall back to them when live mode cannot start.")
    var offline = false

    @Flag(help: "Print the screen as text instead of running the terminal UI.")
    var plain = false

    @Option(help: "flickr, movies: the search text (interactive: start with that search).")
    var search: String?

    @Option(help: "movies: the list (now-playing, popular, upcoming, top-rated).")
    var list: String?

    @Option(help: "goods, goods-dc: the category id (interactive: open it).")
    var category: String?

    @Option(help: "goods, goods-dc: how many pages to load.")
    var page: Int = 1

    @Option(help: "login: the user name (with --password: signed in).")
    var user: String?

    @Option(help: "login: the password (with --user: signed in).")
    var password: String?

    var options: ShowcaseOptions {
        ShowcaseOptions(search: search, list: list, category: category, page: page, user: user, password: password)
    }

    var isPlain: Bool { plain || !POSIXTerminal.isInteractive }

    func validate() throws {
        if web {
            guard app == nil, !plain else { throw ValidationError("--web serves every app; open one from the start page (or at its address, /flickr say)") }
            guard sessionGrace >= 0 else { throw ValidationError("--session-grace must be 0 or more seconds") }
            guard maxSessions >= 1 else { throw ValidationError("--max-sessions must be at least 1") }
            guard (maxConnections ?? 1) >= 1 else { throw ValidationError("--max-connections must be at least 1") }
            guard (eventLoops ?? 1) >= 1 else { throw ValidationError("--event-loops must be at least 1") }
            guard (0...60_000).contains(latency) else { throw ValidationError("--latency must be 0 to 60000 milliseconds") }
            guard (0...60_000).contains(jitter) else { throw ValidationError("--jitter must be 0 to 60000 milliseconds") }
            let misplaced = options.misplaced(for: nil)
            guard misplaced.isEmpty else { throw ValidationError("\(misplaced.joined(separator: ", ")) does not apply to --web") }
            return
        }
        if host != "127.0.0.1" || port != 8080 || sessionGrace != 30 || maxSessions != 200 || maxConnections != nil || eventLoops != nil || latency != 0 || jitter != 0 || statsToken != nil
            || !path.isEmpty || !publicHost.isEmpty || !trustedProxy.isEmpty {
            throw ValidationError("--host, --port, --session-grace, --max-sessions, --max-connections, --event-loops, --latency, --jitter, --stats-token, --path, --public-host and --trusted-proxy apply to --web only")
        }
        if let app, ShowcaseApp(rawValue: app) == nil {
            throw ValidationError("unknown app '\(app)': use one of \(ShowcaseApp.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if page < 1 { throw ValidationError("--page must be at least 1") }
        // Plain mode without an app runs flickr; the interactive launcher takes no options.
        let target = app.flatMap(ShowcaseApp.init(rawValue:)) ?? (isPlain ? .flickr : nil)
        if database != nil || todoFile != nil, target != nil, target != .todo {
            throw ValidationError("--database and --todo-file apply to todo, the launcher and --web only")
        }
        if todoFile != nil, isPlain {
            throw ValidationError("--todo-file imports into the database: run todo without --plain (plain mode only reads the list)")
        }
        let misplaced = options.misplaced(for: target)
        if !misplaced.isEmpty {
            let name = target?.rawValue ?? "the launcher (name an app)"
            throw ValidationError("\(misplaced.joined(separator: ", ")) does not apply to \(name)")
        }
    }

    func run() async throws {
        if web {
            try await WebShowcaseServer(host: host, port: port, live: live, offline: offline, sessionGrace: sessionGrace,
                                        maxSessions: maxSessions, maxConnections: maxConnections, eventLoops: eventLoops, latency: latency, jitter: jitter, statsToken: statsToken,
                                        path: path, publicHosts: publicHost, trustedProxies: trustedProxy,
                                        database: database ?? WebShowcaseServer.defaultDatabase, todoFile: todoFile).run()
            return
        }
        let chosen = app.flatMap(ShowcaseApp.init(rawValue:))
        let environment = Environment()
        if isPlain {
            let todos = chosen == .todo ? try await Self.opening { try await TerminalTodos.snapshot(database) } : SharedTodos()
            try await runPlain(chosen ?? .flickr, environment: environment, todos: todos)
            return
        }
        // The to-do list is opened when the to-do app or the launcher is; where it is kept is
        // said once the terminal is restored.
        var said: [String] = []
        var todos = SharedTodos()
        var login: (@Sendable (any Scheduler) -> any LoginService)?
        if chosen == nil || chosen == .todo || chosen == .login {
            (todos, login, said) = try await Self.opening { try await TerminalTodos.open(database, importing: todoFile) }
        }
        defer { said.forEach(Self.printError) }
        let showcase = await InteractiveShowcase(app: chosen, live: live, offline: offline, options: options, environment: environment, todos: todos, login: login)
        if let message = ProcessInfo.processInfo.environment["SHOWCASE_E2E_TRAP"] {
            // End-to-end tests only (issue 16 (3)): a runtime trap while the UI is up, to check
            // that its message is shown once the terminal is restored.
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) {
                preconditionFailure(message)
            }
        }
        try await showcase.run()
    }

    /// SH-1: the view state on stdout; every failure's message on stderr and a non-zero exit
    /// status (see EXIT STATUS in the help).
    @MainActor
    func runPlain(_ app: ShowcaseApp, environment: Environment, todos: SharedTodos) throws {
        let mode: ServiceMode
        do {
            let chosen = try ServiceFactory.mode(for: app, live: live, offline: offline, environment: environment)
            mode = chosen.mode
            if let note = chosen.note { Self.printError(note) }
        } catch {
            Self.printError(error.description)
            throw ExitCode(ShowcaseExitCode.configuration.rawValue)
        }
        let outcome: PlainOutcome
        do {
            outcome = try PlainShowcase(app: app, options: options, mode: mode, environment: environment, todos: todos).outcome()
        } catch let error as ServiceSetupError {
            throw ValidationError(error.description)
        }
        print(outcome.output)
        if let failure = outcome.failure { Self.printError(failure) }
        if outcome.exitCode != .success { throw ExitCode(outcome.exitCode.rawValue) }
    }

    /// What `open` returns; a list that cannot be opened (a file that is not a database, a
    /// folder that cannot be written) ends the run with its reason (exit status 1).
    static func opening<T>(_ open: () async throws -> T) async throws -> T {
        do {
            return try await open()
        } catch let error as ValidationError {
            throw error
        } catch {
            printError("cannot open the to-do list: \(error)")
            throw ExitCode(1)
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("showcase: \(message)\n".utf8))
    }
}
