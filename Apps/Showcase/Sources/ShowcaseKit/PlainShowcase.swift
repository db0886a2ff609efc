import FlickrSearch
import Foundation
import GoodsCatalog
import LiveHTTP
import Login
import MVVM
import MovieInfo
import PersonProfile
import ShowcaseCore
import Signals
import TerminalUI

/// What the command line asked for: what plain mode does, and where the interactive mode
/// starts (`showcase flickr --search sunset` opens on that search).
public struct PlainOptions: Sendable {
    public var search: String?
    public var list: String?
    public var category: String?
    public var page: Int
    public var user: String?
    public var password: String?

    public init(search: String? = nil, list: String? = nil, category: String? = nil, page: Int = 1, user: String? = nil, password: String? = nil) {
        self.search = search
        self.list = list
        self.category = category
        self.page = page
        self.user = user
        self.password = password
    }

    /// The options that do not apply to `app` ("--list" for flickr), as their flags; passing
    /// one is a usage error rather than something silently ignored.
    public func misplaced(for app: ShowcaseApp?) -> [String] {
        var given: [(flag: String, apps: [ShowcaseApp])] = []
        if search != nil { given.append(("--search", [.flickr, .movies])) }
        if list != nil { given.append(("--list", [.movies])) }
        if category != nil { given.append(("--category", [.goods, .goodsDataController])) }
        if page != 1 { given.append(("--page", [.goods, .goodsDataController])) }
        if user != nil { given.append(("--user", [.login])) }
        if password != nil { given.append(("--password", [.login])) }
        return given.filter { entry in app.map { !entry.apps.contains($0) } ?? true }.map(\.flag)
    }
}

/// How a `showcase` run ends (SH-1): documented in `--help` and the README.
public enum ShowcaseExitCode: Int32, Sendable, CaseIterable {
    /// Done: the view state is on stdout.
    case success = 0
    /// The app reported a failure (the search or list failed, the login was refused or failed);
    /// the view state is still on stdout, the message on stderr.
    case failure = 1
    /// Bad arguments: an unknown app, list or category, an option the app does not take, a
    /// search too short to run (the message and usage on stderr).
    case usage = 64
    /// Live mode cannot start: no API key, or a base URL that is not http(s) (the message on
    /// stderr; nothing falls back to the offline catalog unless --offline is given).
    case configuration = 78
}

/// What a plain run printed, and whether it failed.
public struct PlainOutcome: Sendable, Equatable {
    /// The view state, for stdout.
    public let output: String
    /// Why the run failed (for stderr), if it did.
    public let failure: String?
    public let exitCode: ShowcaseExitCode

    public init(output: String, failure: String? = nil, exitCode: ShowcaseExitCode? = nil) {
        self.output = output
        self.failure = failure
        self.exitCode = exitCode ?? (failure == nil ? .success : .failure)
    }
}

/// Plain mode: the same view models driven by arguments, printing the resulting view state as
/// text (another view of the same view models, for scripts and pipes). Offline, time runs
/// virtually, so the output is immediate and the same every time; live, it waits for the APIs.
public struct PlainShowcase {
    let app: ShowcaseApp
    let options: PlainOptions
    let mode: ServiceMode
    let environment: Environment

    public init(app: ShowcaseApp, options: PlainOptions, mode: ServiceMode, environment: Environment = Environment()) {
        self.app = app
        self.options = options
        self.mode = mode
        self.environment = environment
    }

    /// The text of the view state; throws a ``ServiceSetupError`` for unusable arguments.
    public func run() throws -> String {
        try outcome().output
    }

    /// The text of the view state and the failure the app reported, if any (SH-1); throws a
    /// ``ServiceSetupError`` for unusable arguments.
    public func outcome() throws -> PlainOutcome {
        let clock = PlainClock(live: mode == .live)
        // What is still waiting on virtual time when the run is over is dropped, so the view
        // models it refers to are freed.
        let navigator = Navigator()
        defer {
            navigator.close()
            clock.stop()
        }
        let factory = ServiceFactory(mode: mode, environment: environment, scheduler: clock.scheduler, navigator: navigator)
        switch app {
        case .flickr: return try flickr(factory, clock, navigator)
        case .person: return person(factory, clock)
        case .login: return try login(factory, clock, navigator)
        case .movies: return try movies(factory, clock)
        case .goods: return try goods(factory, clock, navigator)
        case .goodsDataController: return try goodsDataController(factory, clock)
        }
    }

    // MARK: Flickr

    func flickr(_ factory: ServiceFactory, _ clock: PlainClock, _ navigator: Navigator) throws -> PlainOutcome {
        let viewModel = FlickrSearchViewModel(services: try factory.flickr())
        navigator.push(viewModel)
        var out = [viewModel.title, String(repeating: "=", count: viewModel.title.count)]
        guard let text = options.search else {
            out.append("Search: (empty) — pass --search TEXT (more than 3 characters)")
            return PlainOutcome(output: out.joined(separator: "\n"))
        }
        viewModel.searchText.value = text
        out.append("Search: \(text)")
        guard viewModel.isSearchValid.value else {
            out.append("Go is disabled: the search needs more than 3 characters.")
            return PlainOutcome(output: out.joined(separator: "\n"), failure: "the search needs more than 3 characters: \(text)", exitCode: .usage)
        }
        let lastAlert = Locked<ConnectionAlert?>(nil)
        let alerts = viewModel.alerts.sink(value: { alert in lastAlert.withLock { $0 = alert } })
        defer { alerts.dispose() }
        viewModel.executeSearch.execute()
        // Live, the answer (an alert or the results screen) may come just after the search
        // stops executing: wait for it, not only for the end of the search.
        clock.settle { lastAlert.withLock { $0 != nil } || navigator.top(FlickrSearchResultsViewModel.self) != nil || viewModel.noResultsText.value != nil }
        if let alert = lastAlert.withLock({ $0 }) {
            out.append("\(alert.title): \(alert.message)")
            return PlainOutcome(output: out.joined(separator: "\n"), failure: alert.message)
        }
        if let none = viewModel.noResultsText.value {
            out.append(none)
            return PlainOutcome(output: out.joined(separator: "\n"))
        }
        guard let results = navigator.top(FlickrSearchResultsViewModel.self) else {
            out.append("No answer.")
            return PlainOutcome(output: out.joined(separator: "\n"), failure: "Flickr did not answer.")
        }
        let shown = Array(results.items.prefix(10))
        for item in shown { item.isVisible.value = true }
        clock.advance(by: .seconds(2)) { shown.allSatisfy { $0.countsText.value != nil } }
        out.append("")
        out.append("Results for \"\(results.title)\": \(CountFormat.grouped(results.results.totalResults)) photos" +
                   (results.results.totalResults > results.items.count ? " (showing \(results.items.count))" : ""))
        for (index, item) in results.items.prefix(20).enumerated() {
            let counts = item.countsText.value.map { "  \($0)" } ?? ""
            out.append(String(format: "%3d. ", index + 1) + item.title + counts)
        }
        if results.items.count > 20 { out.append("     … \(results.items.count - 20) more") }
        out.append("")
        out.append("Recent searches:")
        for row in viewModel.recentRows.value { out.append("  \(row.text) · \(row.totalText) photos") }
        return PlainOutcome(output: out.joined(separator: "\n"))
    }

    // MARK: Person

    func person(_ factory: ServiceFactory, _ clock: PlainClock) -> PlainOutcome {
        let answer = Locked<Result<[Person], PersonError>?>(nil)
        let request = factory.person().people.people().sink(
            value: { people in answer.withLock { $0 = .success(people) } },
            completion: { completion in
                if case .failed(let error) = completion { answer.withLock { $0 = .failure(error) } }
            }
        )
        defer { request.dispose() }
        clock.settle { answer.value != nil }
        var out = ["Person", "======"]
        switch answer.value {
        case .success(let people)?:
            for viewModel in people.map({ PersonViewModel(person: $0) }) {
                out.append("\(viewModel.nameText) — \(viewModel.birthdateText)")
            }
            return PlainOutcome(output: out.joined(separator: "\n"))
        case .failure(let error)?:
            out.append(error.message)
            return PlainOutcome(output: out.joined(separator: "\n"), failure: error.message)
        case nil:
            out.append("No answer.")
            return PlainOutcome(output: out.joined(separator: "\n"), failure: "The people service did not answer.")
        }
    }

    // MARK: Login

    func login(_ factory: ServiceFactory, _ clock: PlainClock, _ navigator: Navigator) throws -> PlainOutcome {
        let viewModel = LoginViewModel(services: factory.login())
        navigator.push(viewModel)
        viewModel.userName.value = options.user ?? ""
        viewModel.password.value = options.password ?? ""
        var out = ["Login", "=====", "User name: \(viewModel.userName.value)", "Password: " + String(repeating: "•", count: viewModel.password.value.count)]
        out.append("Login button: " + (viewModel.isLoginEnabled.value ? "enabled" : "disabled (both fields need at least 3 characters)"))
        guard viewModel.isLoginEnabled.value else {
            return PlainOutcome(output: out.joined(separator: "\n"), failure: "pass --user and --password, each at least 3 characters", exitCode: .usage)
        }
        viewModel.login.execute()
        clock.settle { !viewModel.isLoggingIn.value }
        if let success = navigator.top(LoginSuccessViewModel.self) {
            out += ["", success.greeting, success.userNameText]
            return PlainOutcome(output: out.joined(separator: "\n"))
        }
        let status = viewModel.statusText.value ?? "The login did not answer."
        out += ["", status]
        return PlainOutcome(output: out.joined(separator: "\n"), failure: status)
    }

    // MARK: Movies

    func movies(_ factory: ServiceFactory, _ clock: PlainClock) throws -> PlainOutcome {
        let names: [String: Endpoint] = ["now-playing": .nowPlaying, "popular": .popular, "upcoming": .upcoming, "top-rated": .topRated]
        let requested = options.list ?? "now-playing"
        guard let endpoint = names[requested], let index = Endpoint.allCases.firstIndex(of: endpoint) else {
            throw ServiceSetupError(description: "unknown list '\(requested)': use now-playing, popular, upcoming or top-rated")
        }
        // Only the list asked for is requested (not Now Playing first).
        let app = MoviesTabsViewModel(services: try factory.movies(), list: endpoint)
        var out: [String] = []
        if let query = options.search {
            app.selectedTab.value = 1
            app.search.query.value = query
            clock.advance(by: .seconds(2)) { !app.search.isFetching.value && app.search.infoText.value != MovieSearchViewModel.hint }
            let answered = clock.settle { !app.search.isFetching.value }
            out += ["Movies › Search", "===============", "Query: \(query)"]
            if let info = app.search.infoText.value { out.append(info) }
            out += app.search.movies.value.enumerated().map { Self.movieLine($0.offset, $0.element) }
            let failure = app.search.canRetry.value ? app.search.infoText.value : answered ? nil : Self.noAnswer
            return PlainOutcome(output: out.joined(separator: "\n"), failure: failure)
        }
        let answered = clock.settle { !app.list.isFetching.value }
        out += ["Movies › \(app.list.segments[index])", String(repeating: "=", count: 9 + app.list.segments[index].count)]
        out.append(app.list.segments.enumerated().map { $0.offset == index ? "[\($0.element)]" : $0.element }.joined(separator: " | "))
        if let error = app.list.errorText.value { out.append(error) }
        out += app.list.movies.value.enumerated().map { Self.movieLine($0.offset, $0.element) }
        return PlainOutcome(output: out.joined(separator: "\n"), failure: app.list.errorText.value ?? (answered ? nil : Self.noAnswer))
    }

    /// A live request still running when plain mode stops waiting.
    static let noAnswer = "TMDb did not answer within 30 s."

    static func movieLine(_ index: Int, _ cell: MovieCellViewModel) -> String {
        String(format: "%2d. ", index + 1) + "\(cell.title)  \(cell.ratingText)  (\(cell.releaseDateText))"
    }

    // MARK: Goods

    func goods(_ factory: ServiceFactory, _ clock: PlainClock, _ navigator: Navigator) throws -> PlainOutcome {
        let services = factory.goods()
        let categories = CategoryListViewModel(services: services)
        navigator.push(categories)
        categories.load()
        clock.settle { !categories.isLoading.value }
        guard let id = options.category else {
            var out = [categories.title, "=================="]
            out += categories.rows.value.map { "  \($0.sortID). \($0.title)" }
            out.append("Pass --category ID (and --page N) to see a category's goods.")
            return PlainOutcome(output: out.joined(separator: "\n"), failure: categories.errorText.value)
        }
        guard let index = categories.rows.value.firstIndex(where: { $0.sortID == id }) else {
            throw ServiceSetupError(description: "unknown category '\(id)': use one of \(categories.rows.value.map(\.sortID).joined(separator: ", "))")
        }
        categories.select(index: index)
        guard let list = navigator.top(GoodsListViewModel.self) else { return PlainOutcome(output: "No list.", failure: "the goods list did not open") }
        list.first()
        clock.settle { !list.isLoading.value }
        while list.page.value < options.page && list.hasMore.value {
            list.next()
            clock.settle { !list.isLoading.value }
        }
        var out = ["\(list.title) · \(list.category.value.name)", "================"]
        out += list.rows.value.enumerated().map { String(format: "%3d. ", $0.offset + 1) + $0.element.name.padded(to: 36) + $0.element.price }
        if list.rows.value.isEmpty { out.append("(no goods)") }
        // GD-5: the count, never a page number (an exact multiple ends with its own count).
        if !list.rows.value.isEmpty {
            out.append("\(CountText.items(list.rows.value.count)) · " + (list.hasMore.value ? "more pages (--page \(list.page.value + 1))" : "end of list"))
        }
        if let error = list.errorText.value { out.append(error) }
        return PlainOutcome(output: out.joined(separator: "\n"), failure: list.errorText.value)
    }

    func goodsDataController(_ factory: ServiceFactory, _ clock: PlainClock) throws -> PlainOutcome {
        let services = factory.goods()
        let id = options.category ?? "2"
        guard let category = OfflineGoodsService.categories.first(where: { $0.category.sortID == id })?.category else {
            throw ServiceSetupError(description: "unknown category '\(id)'")
        }
        // On screen, as the app shows it (its lifecycle active), so reaching the end loads.
        let page = GoodsDataControllerPage(category: category, services: services)
        services.navigator.push(page)
        let controller = page.controller
        let view = PlainGoodsListView()
        controller.viewDidLoad(view)
        clock.settle { view.bound.value != nil || view.error.value != nil }
        while (view.bound.value?.hasMore ?? false) && (view.pages.value < options.page) {
            let before = view.pages.value
            controller.didReachEnd()
            clock.settle { view.pages.value > before || view.error.value != nil }
            if view.pages.value == before { break }  // no page came: do not ask forever
        }
        var out = ["商品列表 (DataController) · category \(id)", "=================================="]
        for (index, cell) in (view.bound.value?.cellViewModelArray ?? []).enumerated() {
            out.append(String(format: "%3d. ", index + 1) + cell.name.padded(to: 36) + cell.price)
        }
        let count = view.bound.value?.cellViewModelArray.count ?? 0
        if count == 0 && view.error.value == nil { out.append("(no goods)") }
        if count > 0 { out.append("\(CountText.items(count)) · " + ((view.bound.value?.hasMore ?? false) ? "more pages" : "end of list")) }
        if let error = view.error.value { out.append(error) }
        return PlainOutcome(output: out.joined(separator: "\n"), failure: view.error.value)
    }
}

/// GD-4's list view, as text: records what it is bound to.
final class PlainGoodsListView: GoodsListViewProtocol {
    let bound = Locked<GoodsListStaticViewModel?>(nil)
    let pages = Locked(0)
    let error = Locked<String?>(nil)

    func bind(viewModel: GoodsListStaticViewModel) {
        bound.withLock { $0 = viewModel }
        pages.withLock { $0 += 1 }
    }

    func show(error message: String) {
        error.withLock { $0 = message }
    }
}

/// Time for plain mode: virtual (instant) offline, real when talking to the live APIs.
final class PlainClock: Sendable {
    let scheduler: any Scheduler
    private let virtual: VirtualTimeScheduler?

    init(live: Bool) {
        if live {
            virtual = nil
            scheduler = SerialQueueScheduler(label: "showcase.plain")
        } else {
            let test = VirtualTimeScheduler()
            virtual = test
            scheduler = test
        }
    }

    /// Drops whatever is still scheduled in virtual time.
    func stop() {
        virtual?.cancelAll()
    }

    /// Lets time pass until nothing is scheduled (virtual) or `done` holds (live, 30 s at most),
    /// and returns whether `done` holds: `false` means the answer did not come in time (a server
    /// that trickles bytes never trips the HTTP timeout, which counts silence only).
    @discardableResult
    func settle(_ done: () -> Bool) -> Bool {
        if let virtual {
            virtual.advance(by: .seconds(30))
        } else {
            wait(seconds: 30, until: done)
        }
        return done()
    }

    /// Lets `duration` pass (virtual), or waits until `done` or `duration` (live).
    func advance(by duration: Duration, until done: () -> Bool) {
        if let virtual {
            virtual.advance(by: duration)
            return
        }
        wait(seconds: Double(duration.components.seconds) + 0.5, until: done)
    }

    private func wait(seconds: Double, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() && Date() < deadline { usleep(20_000) }
    }
}
