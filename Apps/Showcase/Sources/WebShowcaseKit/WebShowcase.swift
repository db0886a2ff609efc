import MVVM
import ShowcaseCore
import Signals
import TodoList
import WebUI

/// What a web showcase session runs with.
public struct WebShowcaseConfiguration: Sendable {
    /// Use the live APIs (keys from the environment).
    public var live: Bool
    /// Use the embedded catalogs, even with keys set.
    public var offline: Bool
    public var environment: Environment
    public var scheduler: any Scheduler
    /// The to-do list every tab of the server shares (shared state: one tab's change shows in
    /// every other at once).
    public var todos: SharedTodos

    public init(
        live: Bool = false, offline: Bool = false, environment: Environment = Environment(), scheduler: any Scheduler = MainScheduler.shared,
        todos: SharedTodos = SharedTodos()
    ) {
        self.live = live
        self.offline = offline
        self.environment = environment
        self.scheduler = scheduler
        self.todos = todos
    }
}

/// One browser tab's showcase: its own navigator and view models, the launcher first, the pages
/// bound to the same view-model types the terminal screens drive (SH-3). Every screen has an
/// address (``ShowcaseAddress``): the tab opens at the one the browser asked for, the address
/// bar follows the screens, and the browser's forward button opens the screen of its entry.
@MainActor
public final class WebShowcase: @MainActor WebSessionContent {
    public let navigator = Navigator()
    public let stack = NavigationStack()
    let document: Document
    let configuration: WebShowcaseConfiguration
    let pages: WebPages
    /// Does an address's steps (type the search, open the photo); until they are done the
    /// screens are being built and the browser's history is left alone.
    private var runner: ShowcaseStepRunner?

    /// A tab opened at `location`; `nil` when no screen has that address.
    public init?(document: Document, configuration: WebShowcaseConfiguration, location: WebLocation = .root) {
        guard let route = ShowcaseAddress.route(Self.address(location)) else { return nil }
        self.document = document
        self.configuration = configuration
        pages = WebPages()
        document.root.setChildren([stack])
        navigator.push(LauncherViewModel(open: { [weak self] app in MainScheduler.runOnMainActor { self?.open(app) } }))
        stack.bind(to: navigator, registry: pages.registry())
        document.locations = { [weak self] in self?.locations() }
        document.onNavigate = { [weak self] _, location in self?.navigate(to: location) }
        open(route)
    }

    public func close() {
        runner = nil
        navigator.close()
    }

    /// The navigator, the stack's view models and pages: all must be freed with the session.
    public var ownedObjects: [AnyObject] {
        let owned: [AnyObject] = [navigator, stack]
        return owned + navigator.stack.map { $0 as AnyObject } + stack.pages.map(\.content)
    }

    static func address(_ location: WebLocation) -> ShowcaseAddress {
        ShowcaseAddress(location.segments, query: location.query.map { ShowcaseAddress.Item($0.name, $0.value) })
    }

    /// Each screen's address, bottom first; `nil` while an address's steps are still running.
    func locations() -> [WebLocation]? {
        if let runner, !runner.isDone { return nil }
        return ShowcaseAddress.addresses(of: navigator.stack).map { address in
            WebLocation(path: "/" + address.segments.joined(separator: "/"), query: address.query.map { WebLocation.QueryItem($0.name, $0.value) })
        }
    }

    /// The browser went to an address the screens do not show (its forward button): the
    /// launcher, then that address's screens.
    func navigate(to location: WebLocation) {
        while navigator.stack.count > 1 { navigator.pop() }
        guard let route = ShowcaseAddress.route(Self.address(location)) else {
            document.present(title: "Page not found", message: "There is no screen at \(location).")
            return
        }
        open(route)
    }

    private func open(_ route: ShowcaseRoute) {
        guard let app = route.app else { return }
        open(app, options: route.options, then: route.steps)
    }

    /// Opens `app`; in live mode without a key, says which variable to set and offers to
    /// continue offline.
    public func open(_ app: ShowcaseApp) {
        open(app, options: ShowcaseOptions(), then: [])
    }

    private func open(_ app: ShowcaseApp, options: ShowcaseOptions, then steps: [ShowcaseStep]) {
        let mode = configuration.offline && !configuration.live
            ? .offline : ServiceFactory.mode(for: app, live: configuration.live, environment: configuration.environment)
        if mode == .live, let problem = ServiceFactory.checkLive(app, environment: configuration.environment) {
            document.present(title: "Live mode needs an API key", message: problem.description + " Continue offline for now?", button: "Continue offline") { [weak self] in
                self?.push(app, mode: .offline, options: options, then: steps)
            }
            return
        }
        push(app, mode: mode, options: options, then: steps)
    }

    private func push(_ app: ShowcaseApp, mode: ServiceMode, options: ShowcaseOptions, then extra: [ShowcaseStep]) {
        pages.images = ImageSource(isLive: mode == .live)
        let factory = ServiceFactory(mode: mode, environment: configuration.environment, scheduler: configuration.scheduler, navigator: navigator, todos: configuration.todos)
        let steps: [ShowcaseStep]
        do {
            steps = try app.start(factory, options: options) + extra
        } catch {
            document.present(title: "Could not start \(app.title)", message: "\(error)")
            return
        }
        guard !steps.isEmpty else { return }
        let document = self.document
        runner = ShowcaseStepRunner(steps, navigator: navigator, registry: ShowcaseScreens.registry(), scheduler: configuration.scheduler,
                                    failed: { why in document.log("an address's step could not be done: \(why)") },
                                    finished: { document.locationsChanged() })
    }
}
