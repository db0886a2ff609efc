import MVVM
import Login
import ShowcaseCore
import Signals
import TerminalUI
import TodoList

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
    var options: ShowcaseOptions
    let environment: Environment
    let scheduler: any Scheduler
    /// The to-do app's list.
    let todos: SharedTodos
    /// The login app's service (real accounts), or `nil` for the embedded one.
    let makeLogin: (@Sendable (any Scheduler) -> any LoginService)?

    /// Builds the showcase: the launcher, or `app` directly, started where `options` say
    /// (`--search sunset` opens on that search). The services answer on `scheduler` (tests pass
    /// a virtual-time one). `offline`: the embedded catalogs even with keys set. `todos`: the
    /// list the to-do app shows (an empty one in memory by default).
    public init(app: ShowcaseApp?, live: Bool, offline: Bool = false, options: ShowcaseOptions = ShowcaseOptions(), environment: Environment = Environment(),
                scheduler: any Scheduler = MainScheduler.shared, todos: SharedTodos = SharedTodos(),
                login: (@Sendable (any Scheduler) -> any LoginService)? = nil) {
        self.todos = todos
        self.makeLogin = login
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
        let factory = ServiceFactory(mode: mode, environment: environment, scheduler: scheduler, navigator: navigator, todos: todos, login: makeLogin)
        // The command line's options start the first app opened, once.
        let options = self.options
        self.options = ShowcaseOptions()
        let stack: [any AnyObject & Sendable]
        do {
            let address = try app.address(for: options)
            guard let opened = try ShowcaseAddresses.stack(of: app, at: address, factory: factory) else {
                screen.present(title: "Could not start \(app.title)", message: "\(app.title) has no screen at \(address).")
                return
            }
            stack = opened
        } catch {
            screen.present(title: "Could not start \(app.title)", message: "\(error)")
            return
        }
        navigator.push(all: stack)
        do {
            try app.finish(options, on: navigator.top)
        } catch {
            screen.present(title: "Could not do what the command line asked", message: error.description)
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
