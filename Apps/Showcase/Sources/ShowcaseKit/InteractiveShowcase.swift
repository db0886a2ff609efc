import FlickrSearch
import GoodsCatalog
import LiveHTTP
import Login
import MVVM
import PersonProfile
import MovieInfo
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
    let environment: Environment
    let scheduler: any Scheduler

    /// Builds the showcase: the launcher, or `app` directly. The services answer on `scheduler`
    /// (tests pass a virtual-time one).
    public init(app: ShowcaseApp?, live: Bool, environment: Environment = Environment(), scheduler: any Scheduler = MainScheduler.shared) {
        self.live = live
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
        let mode = ServiceFactory.mode(for: app, live: live, environment: environment)
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
        do {
            switch app {
            case .flickr: navigator.push(FlickrSearchViewModel(services: try factory.flickr()))
            case .person: navigator.push(PersonBrowserViewModel())
            case .login: navigator.push(LoginViewModel(services: factory.login()))
            case .movies: navigator.push(MoviesTabsViewModel(services: try factory.movies()))
            case .goods: navigator.push(CategoryListViewModel(services: factory.goods()))
            case .goodsDataController: navigator.push(GoodsDataControllerCategories(services: factory.goods()))
            }
        } catch {
            screen.present(title: "Could not start \(app.title)", message: "\(error)")
        }
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
