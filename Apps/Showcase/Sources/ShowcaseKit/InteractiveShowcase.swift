import FlickrSearch
import GoodsCatalog
import LiveHTTP
import Login
import MVVM
import PersonProfile
import MovieInfo
import ShowcaseCore
import Signals
import TerminalUI

/// The showcase in a terminal: a navigation stack of screens bound to the view models, on the
/// embedded catalogs unless live mode is chosen.
@MainActor
public final class InteractiveShowcase {
    public let navigator = Navigator()
    public let screen: TerminalScreen
    let stack = NavigationStack()
    let live: Bool
    let offline: Bool
    /// What the command line asked for; used by the app opened directly (its first screen).
    var options: PlainOptions
    let environment: Environment
    let scheduler: any Scheduler
    private let bag = DisposeBag()

    /// Builds the showcase: the launcher, or `app` directly, started where `options` say
    /// (`--search sunset` opens on that search). The services answer on `scheduler` (tests pass
    /// a virtual-time one). `offline`: the embedded catalogs even with keys set.
    public init(app: ShowcaseApp?, live: Bool, offline: Bool = false, options: PlainOptions = PlainOptions(), environment: Environment = Environment(), scheduler: any Scheduler = MainScheduler.shared) {
        self.live = live
        self.offline = offline
        self.options = options
        self.environment = environment
        self.scheduler = scheduler
        // Every screen adapts down to 40×12 (issue 16); below, the screen says so.
        screen = TerminalScreen(stack, minimumSize: Size(width: 40, height: 12))
        if let app {
            open(app)
        } else {
            navigator.push(LauncherViewModel(open: { [weak self] app in MainScheduler.runOnMainActor { self?.open(app) } }))
        }
        stack.bind(to: navigator, registry: Screens.registry())
    }

    /// Opens `app` on top of the stack; in live mode without a key, says which variable to set
    /// and offers to continue offline.
    public func open(_ app: ShowcaseApp) {
        let mode = offline && !live ? .offline : ServiceFactory.mode(for: app, live: live, environment: environment)
        if mode == .live, let problem = ServiceFactory.checkLive(app, environment: environment) {
            screen.present(title: "Live mode needs an API key", message: problem.description + " Continue offline for now?", button: "Continue offline") { [weak self] in
                self?.push(app, mode: .offline)
            }
            return
        }
        push(app, mode: mode)
    }

    private func push(_ app: ShowcaseApp, mode: ServiceMode) {
        let factory = ServiceFactory(mode: mode, environment: environment, scheduler: scheduler, navigator: navigator)
        // The command line's options start the first app opened, once.
        let options = self.options
        self.options = PlainOptions()
        do {
            switch app {
            case .flickr:
                let search = FlickrSearchViewModel(services: try factory.flickr())
                navigator.push(search)
                if let text = options.search {
                    search.searchText.value = text
                    if search.isSearchValid.value { search.executeSearch.execute() }
                }
            case .person: navigator.push(PersonBrowserViewModel(services: factory.person()))
            case .login:
                let login = LoginViewModel(services: factory.login())
                login.userName.value = options.user ?? ""
                login.password.value = options.password ?? ""
                navigator.push(login)
            case .movies:
                let names: [String: Endpoint] = ["now-playing": .nowPlaying, "popular": .popular, "upcoming": .upcoming, "top-rated": .topRated]
                let first = try options.list.map { name throws(ServiceSetupError) -> Endpoint in
                    guard let endpoint = names[name] else {
                        throw ServiceSetupError(description: "Unknown list '\(name)': use now-playing, popular, upcoming or top-rated.")
                    }
                    return endpoint
                } ?? .nowPlaying
                let movies = MoviesTabsViewModel(services: try factory.movies(), list: first)
                navigator.push(movies)
                if let query = options.search {
                    movies.selectedTab.value = 1
                    movies.search.query.value = query
                }
            case .goods:
                let categories = CategoryListViewModel(services: factory.goods())
                navigator.push(categories)
                if let id = try Self.category(options.category) {
                    // Opens the category once the list has loaded (the screen loads it).
                    categories.rows.signal
                        .compactMap { rows in rows.firstIndex { $0.sortID == id } }
                        .prefix(1)
                        .asDriver()
                        .drive { [weak categories] index in categories?.select(index: index) }
                        .disposed(by: bag)
                }
            case .goodsDataController:
                let services = factory.goods()
                navigator.push(GoodsDataControllerCategories(services: services))
                if let id = try Self.category(options.category),
                   let category = OfflineGoodsService.categories.first(where: { $0.category.sortID == id })?.category {
                    navigator.push(GoodsDataControllerPage(category: category, services: services))
                }
            }
        } catch {
            screen.present(title: "Could not start \(app.title)", message: "\(error)")
        }
    }

    /// A goods category id from the command line, if it names one of the catalog's.
    static func category(_ id: String?) throws(ServiceSetupError) -> String? {
        guard let id else { return nil }
        let ids = OfflineGoodsService.categories.map(\.category.sortID)
        guard ids.contains(id) else {
            throw ServiceSetupError(description: "Unknown category '\(id)': use one of \(ids.joined(separator: ", ")).")
        }
        return id
    }

    /// Runs on the process's terminal until Ctrl-C, or Esc on the first screen.
    public func run(device: any TerminalDevice = POSIXTerminal()) async throws {
        try await makeApp(device: device).run()
    }

    /// The app that runs the showcase on `device`: Esc on the first screen (the launcher, or the
    /// app opened directly) ends it, as going back from there.
    public func makeApp(device: any TerminalDevice) -> TerminalApp {
        let app = TerminalApp(screen: screen, device: device)
        screen.onEscapeAtRoot = { [weak app] in app?.quit() }
        return app
    }
}
