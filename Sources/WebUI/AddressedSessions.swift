import MVVM
import Signals

/// A tab being opened by sessions that know the app's addresses: what the app's services for it
/// may need (its navigator, to push with; its page, for a scheduler on its executor).
public struct WebTab {
    /// The tab's page.
    public let document: Document
    /// The tab's navigator: its stack is the one the address opened, and the page shows its top.
    public let navigator: Navigator
}

extension WebSessions {
    /// Sessions of an app that declares its addresses (MVVM's `AppAddresses`): each tab opens at
    /// the address the browser asked for (the view models `Addresses.stack(at:services:)` gives,
    /// or a 404 when it gives `nil`), shows its top screen, and keeps the browser's address bar
    /// and history following the screens: a reload, a bookmark or a shared link opens the same
    /// screen; Back pops, and Forward (or any address the screens do not show) opens that
    /// address's screens. Every tab's view models get the same `services`.
    ///
    /// Each session runs on an executor of its own, and everything the app gives is called
    /// there: the app's view models must not be `@MainActor` (for those:
    /// ``init(onMainActor:services:limits:log:screens:)``). `screens` registers a screen for each
    /// of the app's view model types, in a registry of the tab's own.
    ///
    /// ```swift
    /// let sessions = WebSessions(addresses: TodoAddresses.self, services: list) { screens in
    ///     screens.register(TodoListViewModel.self, described: TodoScreens.list)
    /// }
    /// ```
    public convenience init<Addresses: AppAddresses & SendableMetatype>(
        addresses: Addresses.Type, services: Addresses.Services,
        limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
        screens: @escaping @Sendable (ScreenRegistry<NavigationStack.Page>) -> Void
    ) where Addresses.Services: Sendable {
        self.init(addresses: addresses, servicesPerTab: { _ in services }, limits: limits, log: log, screens: screens)
    }

    /// Sessions of an app that declares its addresses, whose view models get services made for
    /// each tab (`servicesPerTab`, given the tab's navigator and page): otherwise as
    /// ``init(addresses:services:limits:log:screens:)``.
    public convenience init<Addresses: AppAddresses & SendableMetatype>(
        addresses: Addresses.Type, servicesPerTab: @escaping @Sendable (WebTab) -> Addresses.Services,
        limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
        screens: @escaping @Sendable (ScreenRegistry<NavigationStack.Page>) -> Void
    ) {
        self.init(limits: limits, log: log, routes: { document, location in
            AddressedTab<Addresses>(document: document, at: Address(location), services: servicesPerTab, screens: screens)
        })
    }

    /// Sessions of an app whose view models are `@MainActor` and whose addresses say so (`enum
    /// Addresses: @MainActor AppAddresses`, which Swift 6.2's main-actor default isolation
    /// infers): every session runs on the main actor, one thread for all of them, and
    /// everything the app gives is called there; otherwise as
    /// ``init(addresses:services:limits:log:screens:)``. Made on the main actor (`await` it from
    /// elsewhere).
    ///
    /// What it costs: the sessions take their turns one at a time on one thread, where sessions
    /// on executors of their own take them on every core; a server whose tabs type at once
    /// answers later. Move the view models off the main actor when that matters.
    @MainActor
    public convenience init<Addresses: AppAddresses>(
        onMainActor addresses: Addresses.Type, services: Addresses.Services,
        limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
        screens: @escaping @MainActor (ScreenRegistry<NavigationStack.Page>) -> Void
    ) where Addresses.Services: Sendable {
        self.init(onMainActor: addresses, servicesPerTab: { _ in services }, limits: limits, log: log, screens: screens)
    }

    /// Sessions of an app whose view models are `@MainActor`, with services made for each tab:
    /// as ``init(onMainActor:services:limits:log:screens:)`` and
    /// ``init(addresses:servicesPerTab:limits:log:screens:)``.
    @MainActor
    public convenience init<Addresses: AppAddresses>(
        onMainActor addresses: Addresses.Type, servicesPerTab: @escaping @MainActor (WebTab) -> Addresses.Services,
        limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
        screens: @escaping @MainActor (ScreenRegistry<NavigationStack.Page>) -> Void
    ) {
        self.init(limits: limits, log: log, onMainActor: { document, location in
            AddressedTab<Addresses>(document: document, at: Address(location), services: servicesPerTab, screens: screens)
        })
    }
}

/// One tab of an app with addresses: the stack its address opened, a navigation stack showing
/// it, and the address loop — the screens' addresses to the browser (``Document/locations``),
/// the browser's to the screens (``Document/onNavigate``). Made and used on its session's
/// executor.
final class AddressedTab<Addresses: AppAddresses>: WebSessionContent {
    let document: Document
    let navigator = Navigator()
    let stack = NavigationStack()
    private let services: Addresses.Services
    private let arrival: Arrival

    init?(document: Document, at address: Address, services: (WebTab) -> Addresses.Services,
          screens: (ScreenRegistry<NavigationStack.Page>) -> Void) {
        self.document = document
        arrival = Arrival(document: document)
        self.services = services(WebTab(document: document, navigator: navigator))
        guard let opened = Addresses.stack(at: address, services: self.services), !opened.isEmpty else {
            navigator.close()
            return nil
        }
        let registry = ScreenRegistry<NavigationStack.Page>()
        screens(registry)
        document.root.setChildren([stack])
        stack.bind(to: navigator, registry: registry)
        navigator.push(all: opened)
        arrival.wait(for: address, shown: addresses().last)
        document.locations = { [weak self] in self?.locations() }
        document.onNavigate = { [weak self] _, location in self?.navigate(to: Address(location)) }
    }

    func close() {
        arrival.cancel()
        navigator.close()
    }

    /// The navigator, the stack's view models and pages: all must be freed with the session.
    var ownedObjects: [AnyObject] {
        let owned: [AnyObject] = [navigator, stack]
        return owned + navigator.stack.map { $0 as AnyObject } + stack.pages.map(\.content)
    }

    private func addresses() -> [Address] {
        Address.addresses(of: navigator.stack, by: Addresses.address(of:below:))
    }

    /// Each screen's address, bottom first; `nil` while the stack is still getting to the address
    /// the tab was asked for.
    private func locations() -> [WebLocation]? {
        let addresses = addresses()
        guard arrival.hasArrived(showing: addresses.last) else { return nil }
        return addresses.map(WebLocation.init)
    }

    /// The browser went to an address the screens do not show (Forward, or Back past a change
    /// that was not a push): that address's screens, or a dialog when none has it.
    private func navigate(to address: Address) {
        guard let opened = Addresses.stack(at: address, services: services), !opened.isEmpty else {
            document.present(title: "Page not found", message: "There is no screen at \(address).")
            return
        }
        navigator.replace(with: opened)
        arrival.wait(for: address, shown: addresses().last)
    }
}

/// A tab's way to an address whose screens open by themselves, later (a search that runs before
/// its results open, a detail opened once its list loads): while the stack is shallower than the
/// address, the browser's history is left alone, for ``patience`` at most; then the address bar
/// follows whatever the screens show.
final class Arrival {
    private let document: Document
    /// How long screens may take to get to their address.
    let patience: Duration
    private var opening: Address?
    private var timer: (any Disposable)?

    init(document: Document, patience: Duration = .seconds(10)) {
        self.document = document
        self.patience = patience
    }

    /// Whether the history waits for the screens.
    var isWaiting: Bool { opening != nil }

    /// The screens were asked for `address` and show `shown` (the top's address) now.
    func wait(for address: Address, shown: Address?) {
        cancel()
        guard let shown, shown.path.count < address.path.count else { return }
        opening = address
        let patience = self.patience
        // SAFETY: the timer runs on the tab's executor, where the tab is made and used.
        nonisolated(unsafe) weak let arrival = self
        timer = document.executor.run(after: patience) {
            guard let arrival, arrival.opening != nil else { return }
            arrival.opening = nil
            arrival.document.log("the screens did not get to \(address) within \(patience)")
            arrival.document.locationsChanged()
        }
    }

    /// Whether the screens, showing `shown` on top, are as deep as the address asked for (or
    /// the patience ran out).
    func hasArrived(showing shown: Address?) -> Bool {
        guard let opening else { return true }
        guard let shown, shown.path.count >= opening.path.count else { return false }
        cancel()
        return true
    }

    func cancel() {
        opening = nil
        timer?.dispose()
        timer = nil
    }
}

extension Address {
    /// The app's address a browser's location stands for: its path's segments and its query.
    public init(_ location: WebLocation) {
        self.init(location.segments, query: location.query.map { Item($0.name, $0.value) })
    }
}

extension WebLocation {
    /// The browser's location for an app's address.
    public init(_ address: Address) {
        self.init(path: "/" + address.path.joined(separator: "/"), query: address.query.map { QueryItem($0.name, $0.value) })
    }
}
