import MVVM
import ShowcaseCore
import Signals
import WebUI

/// What a web showcase session runs with.
public struct WebShowcaseConfiguration: Sendable {
    /// Use the live APIs (keys from the environment).
    public var live: Bool
    /// Use the embedded catalogs, even with keys set.
    public var offline: Bool
    public var environment: Environment
    public var scheduler: any Scheduler

    public init(live: Bool = false, offline: Bool = false, environment: Environment = Environment(), scheduler: any Scheduler = MainScheduler.shared) {
        self.live = live
        self.offline = offline
        self.environment = environment
        self.scheduler = scheduler
    }
}

/// One browser tab's showcase: its own navigator and view models, the launcher first, the pages
/// bound to the same view-model types the terminal screens drive (SH-3).
@MainActor
public final class WebShowcase: WebSessionContent {
    public let navigator = Navigator()
    public let stack = NavigationStack()
    let document: Document
    let configuration: WebShowcaseConfiguration
    let pages: WebPages

    public init(document: Document, configuration: WebShowcaseConfiguration) {
        self.document = document
        self.configuration = configuration
        pages = WebPages()
        document.root.setChildren([stack])
        navigator.push(LauncherViewModel(open: { [weak self] app in MainScheduler.runOnMainActor { self?.open(app) } }))
        stack.bind(to: navigator, registry: pages.registry())
    }

    public func close() {
        navigator.close()
    }

    /// The navigator, the stack's view models and pages: all must be freed with the session.
    public var ownedObjects: [AnyObject] {
        [navigator, stack] + navigator.stack + stack.pages.map(\.content)
    }

    /// Opens `app`; in live mode without a key, says which variable to set and offers to
    /// continue offline.
    public func open(_ app: ShowcaseApp) {
        let mode = configuration.offline && !configuration.live
            ? .offline : ServiceFactory.mode(for: app, live: configuration.live, environment: configuration.environment)
        if mode == .live, let problem = ServiceFactory.checkLive(app, environment: configuration.environment) {
            document.present(title: "Live mode needs an API key", message: problem.description + " Continue offline for now?", button: "Continue offline") { [weak self] in
                self?.push(app, mode: .offline)
            }
            return
        }
        push(app, mode: mode)
    }

    private func push(_ app: ShowcaseApp, mode: ServiceMode) {
        pages.images = ImageSource(isLive: mode == .live)
        let factory = ServiceFactory(mode: mode, environment: configuration.environment, scheduler: configuration.scheduler, navigator: navigator)
        do {
            _ = try app.start(factory)
        } catch {
            document.present(title: "Could not start \(app.title)", message: "\(error)")
        }
    }
}
