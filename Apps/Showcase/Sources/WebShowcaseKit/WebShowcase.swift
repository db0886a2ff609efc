import MVVM
import Login
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
    /// Where the apps' services wait (an offline catalog's answer, a search's throttle): the
    /// session's own executor unless set (a test's `TestScheduler`).
    public var scheduler: (any Scheduler)?
    /// The to-do list every tab of the server shares (shared state: one tab's change shows in
    /// every other at once).
    public var todos: SharedTodos
    /// The login app's service for a tab (real accounts: given the tab's scheduler and who is
    /// at it, for throttling); `nil`: the embedded one.
    public var login: (@Sendable (any Scheduler, WebVisitor) -> any LoginService)?

    public init(
        live: Bool = false, offline: Bool = false, environment: Environment = Environment(), scheduler: (any Scheduler)? = nil,
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
/// address (``ShowcaseAddresses``, each app's own beside its screens): the tab opens at the one
/// the browser asked for, its stack built from the address; the address bar follows the
/// screens, and the browser's forward button opens the screen of its entry.
///
/// A tab takes its turns on its session's executor: one of its own, or the main actor for the
/// Person tutorial's screens (its view model is `@MainActor`, ``ShowcaseApp/runsOnMainActor``).
/// A tab on its own executor that is to open Person has the browser load Person's address as a
/// new page, whose session is on the main actor (``sessions(configuration:limits:log:)``).
public final class WebShowcase: WebSessionContent, @unchecked Sendable {
    // SAFETY: made on its session's executor and used only there: the page's events, the
    // navigator's changes (delivered there by the stack) and its timers all run on it; the
    // launcher's `open` is called by the launcher's screen, on it too (checked).
    public let navigator = Navigator()
    public let stack = NavigationStack()
    let document: Document
    let configuration: WebShowcaseConfiguration
    let pages: WebPages
    /// Where the apps' services wait: the configuration's scheduler, or the session's executor.
    private let scheduler: any Scheduler
    /// The app on the stack, if any.
    private var app: ShowcaseApp?
    /// The address the tab was asked for, while its stack is still shallower than it (a search
    /// that runs before its results open, a person opened once the people load): the browser's
    /// history is left alone until the screens are as deep as the address, or for ``patience``
    /// at most.
    private var opening: Address?
    /// Made only for a deep link that is still getting there (most tabs never have one).
    private var patienceTimer: (any Disposable)?
    /// How long an address's screens may take to get there before the address bar follows
    /// whatever they show.
    static let patience: Duration = .seconds(10)

    /// The stacks of the apps whose view models are `@MainActor`, in a session on the main actor.
    private let mainActorStacks: MainActorStacks?

    /// A tab opened at `location`, in a session on its own executor; `nil` when no screen has
    /// that address. An app whose view models are `@MainActor` is loaded as a new page, in a
    /// session on the main actor.
    public convenience init?(document: Document, configuration: WebShowcaseConfiguration, location: WebLocation = .root) {
        self.init(document: document, configuration: configuration, location: location, mainActorStacks: nil)
    }

    /// A tab opened at `location` in a session on the main actor, where it shows every app.
    @MainActor
    public convenience init?(onMainActor document: Document, configuration: WebShowcaseConfiguration, location: WebLocation) {
        self.init(document: document, configuration: configuration, location: location, mainActorStacks: MainActorStacks())
    }

    private init?(document: Document, configuration: WebShowcaseConfiguration, location: WebLocation, mainActorStacks: MainActorStacks?) {
        guard let route = ShowcaseAddresses.route(Address(location)) else { return nil }
        self.document = document
        self.configuration = configuration
        self.mainActorStacks = mainActorStacks
        let executor = document.executor
        scheduler = configuration.scheduler ?? (executor.isMain ? MainScheduler.shared : SerialQueueScheduler(queue: executor.queue))
        pages = WebPages()
        document.root.setChildren([stack])
        navigator.push(LauncherViewModel(open: { [weak self] app in
            precondition(executor.isCurrent, "the launcher opens an app on its session's executor")
            self?.open(app)
        }))
        stack.bind(to: navigator, registry: pages.registry())
        document.locations = { [weak self] in self?.locations() }
        document.onNavigate = { [weak self] _, location in self?.navigate(to: location) }
        guard let app = route.app else { return }
        // An address no screen of the app has is a 404, as an unknown app is.
        guard open(app, at: route.address) else { return nil }
    }

    /// The showcase's sessions: each on an executor of its own, those at Person's addresses on
    /// the main actor (its view model is `@MainActor @Observable`, seed 001's RACObserve); `/elements`
    /// is WebUI's events from any element (a page of the browser only).
    public static func sessions(configuration: WebShowcaseConfiguration, limits: WebSessions.Limits = WebSessions.Limits(),
                                log: @escaping @Sendable (String) -> Void = WebSessions.standardError) -> WebSessions {
        WebSessions(limits: limits, log: log, onMainActorAt: { location in
            ShowcaseAddresses.route(Address(location))?.app?.runsOnMainActor ?? false
        }, mainActorRoutes: { document, location in
            WebShowcase(onMainActor: document, configuration: configuration, location: location)
        }, routes: { document, location in
            if location.path == "/elements" { return ElementsDemo(document: document) }
            return WebShowcase(document: document, configuration: configuration, location: location)
        })
    }

    public func close() {
        patienceTimer?.dispose()
        navigator.close()
    }

    /// The navigator, the stack's view models and pages: all must be freed with the session.
    public var ownedObjects: [AnyObject] {
        let owned: [AnyObject] = [navigator, stack]
        return owned + navigator.stack.map { $0 as AnyObject } + stack.pages.map(\.content)
    }

    /// Each screen's address, bottom first; `nil` while the stack is still getting to the address
    /// the tab was asked for.
    func locations() -> [WebLocation]? {
        let addresses = ShowcaseAddresses.addresses(of: navigator.stack, in: app)
        if let opening {
            guard let last = addresses.last, last.path.count >= opening.path.count else { return nil }
            self.opening = nil
            patienceTimer?.dispose()
            patienceTimer = nil
        }
        return addresses.map(WebLocation.init)
    }

    /// The browser went to an address the screens do not show (its forward button): the
    /// launcher, then that address's screens.
    func navigate(to location: WebLocation) {
        while navigator.stack.count > 1 { navigator.pop() }
        guard let route = ShowcaseAddresses.route(Address(location)), route.app.map({ open($0, at: route.address) }) ?? true else {
            document.present(title: "Page not found", message: "There is no screen at \(location).")
            return
        }
    }

    /// Opens `app` at its first screen; in live mode without a key, says which variable to set
    /// and offers to continue offline.
    public func open(_ app: ShowcaseApp) {
        _ = open(app, at: Address())
    }

    /// Opens `app` at its own `address`; `false` when none of its screens has that address.
    private func open(_ app: ShowcaseApp, at address: Address) -> Bool {
        let mode = configuration.offline && !configuration.live
            ? .offline : ServiceFactory.mode(for: app, live: configuration.live, environment: configuration.environment)
        if mode == .live, let problem = ServiceFactory.checkLive(app, environment: configuration.environment) {
            document.present(title: "Live mode needs an API key", message: problem.description + " Continue offline for now?", button: "Continue offline") { [weak self] in
                _ = self?.push(app, mode: .offline, at: address)
            }
            return true
        }
        return push(app, mode: mode, at: address)
    }

    private func push(_ app: ShowcaseApp, mode: ServiceMode, at address: Address) -> Bool {
        if app.runsOnMainActor && mainActorStacks == nil {
            // Its screens need the main actor: the browser loads its address as a new page, in a
            // session there (a moment's reload, the price of a `@MainActor` view model).
            document.load(WebLocation(address.under([app.rawValue])))
            return true
        }
        pages.images = ImageSource(isLive: mode == .live)
        let visitor = document.visitor
        var makeLogin: (@Sendable (any Scheduler) -> any LoginService)?
        if let make = configuration.login {
            makeLogin = { scheduler in make(scheduler, visitor) }
        }
        let factory = ServiceFactory(mode: mode, environment: configuration.environment, scheduler: scheduler, navigator: navigator, todos: configuration.todos,
                                     login: makeLogin)
        let stack: [any AnyObject & Sendable]
        do {
            guard let opened = try ShowcaseAddresses.stack(of: app, at: address, factory: factory, mainActor: mainActorStacks) else { return false }
            stack = opened
        } catch {
            document.present(title: "Could not start \(app.title)", message: "\(error)")
            return true
        }
        self.app = app
        navigator.push(all: stack)
        let wanted = address.under([app.rawValue])
        guard let shown = ShowcaseAddresses.addresses(of: navigator.stack, in: app).last, shown.path.count < wanted.path.count else { return true }
        opening = wanted
        patienceTimer?.dispose()
        let executor = document.executor
        patienceTimer = scheduler.schedule(after: Self.patience) { [weak self] in
            let giveUp: @Sendable () -> Void = { [weak self] in
                guard let self, self.opening != nil else { return }
                self.opening = nil
                self.document.log("the screens did not get to \(wanted) within \(Self.patience)")
                self.document.locationsChanged()
            }
            if executor.isCurrent { giveUp() } else { executor.run(giveUp) }
        }
        return true
    }
}
