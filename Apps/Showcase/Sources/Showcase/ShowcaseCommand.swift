import ArgumentParser
import Foundation
import LiveHTTP
import ShowcaseKit
import TerminalUI

@main
struct ShowcaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showcase",
        abstract: "The MVVM tutorials' apps, running in your terminal on MVVMKit.",
        discussion: """
        APPS
          flickr     Flickr search: recent searches, counts for visible rows (seed 000)
          person     A person's name and birthday, formatted by a view model (seed 001)
          login      Login enabled at 3+3 characters; success, failure, error (seed 002)
          movies     TMDb lists in tabs and a throttled search (seed 003)
          goods      Categories, a paged goods list and details (seed 004)
          goods-dc   The same goods list without bindings: DataController (seed 004)
          With no app, a launcher lists them.

        KEYS
          Tab / Shift-Tab   next / previous field      ↑ ↓         move in lists, next field
          Enter             press, open, search         ← →         switch tabs and segments
          Esc               back                        PgUp/PgDn   page through lists
          Ctrl-C            quit (the terminal is restored)

        ENVIRONMENT
          Without keys every app runs on its embedded offline catalog (no network needed).
          FLICKR_API_KEY           use the live Flickr API (also with --live)
          TMDB_API_KEY             a TMDb v3 key, or a v4 read token, for live movies
          TMDB_READ_ACCESS_TOKEN   a TMDb v4 read token, sent as a bearer header
          FLICKR_BASE_URL, TMDB_BASE_URL   other endpoints (proxies, tests)

        PLAIN MODE
          --plain (automatic when output is not a terminal) prints the view state as text:
            showcase flickr --plain --search sunset
            showcase movies --plain --list popular        (now-playing, popular, upcoming, top-rated)
            showcase movies --plain --search storm
            showcase goods --plain --category 2 --page 2
            showcase login --plain --user ada --password lovelace
            showcase person --plain
        """
    )

    @Argument(help: "The app to open: flickr, person, login, movies, goods, goods-dc.")
    var app: String?

    @Flag(help: "Use the live APIs (needs FLICKR_API_KEY or TMDB_API_KEY).")
    var live = false

    @Flag(help: "Print the view state as text instead of running the terminal UI.")
    var plain = false

    @Option(help: "Plain mode: the Flickr or movie search text.")
    var search: String?

    @Option(help: "Plain mode: the movie list (now-playing, popular, upcoming, top-rated).")
    var list: String?

    @Option(help: "Plain mode: the goods category id.")
    var category: String?

    @Option(help: "Plain mode: how many goods pages to load.")
    var page: Int = 1

    @Option(help: "Plain mode: the login user name.")
    var user: String?

    @Option(help: "Plain mode: the login password.")
    var password: String?

    func validate() throws {
        if let app, ShowcaseApp(rawValue: app) == nil {
            throw ValidationError("unknown app '\(app)': use one of \(ShowcaseApp.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if page < 1 { throw ValidationError("--page must be at least 1") }
    }

    func run() async throws {
        let chosen = app.flatMap(ShowcaseApp.init(rawValue:))
        let environment = Environment()
        if plain || !POSIXTerminal.isInteractive {
            try runPlain(chosen ?? .flickr, environment: environment)
            return
        }
        let showcase = await InteractiveShowcase(app: chosen, live: live, environment: environment)
        if let message = ProcessInfo.processInfo.environment["SHOWCASE_E2E_TRAP"] {
            // End-to-end tests only (issue 16 (3)): a runtime trap while the UI is up, to check
            // that its message is shown once the terminal is restored.
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) {
                preconditionFailure(message)
            }
        }
        try await showcase.run()
    }

    func runPlain(_ app: ShowcaseApp, environment: Environment) throws {
        var mode = ServiceFactory.mode(for: app, live: live, environment: environment)
        if mode == .live, let problem = ServiceFactory.checkLive(app, environment: environment) {
            FileHandle.standardError.write(Data("\(problem.description)\nContinuing offline.\n".utf8))
            mode = .offline
        }
        let options = PlainOptions(search: search, list: list, category: category, page: page, user: user, password: password)
        do {
            print(try PlainShowcase(app: app, options: options, mode: mode, environment: environment).run())
        } catch let error as ServiceSetupError {
            throw ValidationError(error.description)
        }
    }
}
