// Issue 58, T-UI6 (navigation from view models, views map it) and T-BEYOND4 (the browser view
// layer): one session API that knows the app's addresses runs the loop between the browser's
// address bar and history and the navigator's stack: deep links, 404s, Back and Forward, a
// reload, and a deep link whose screens arrive later.
import MVVM
import ScreenKit
import Signals
import Synchronization
import SignalsTesting
import Testing
@testable import WebUI

// A small app with addresses: a list at `/` (its search in the query, `/?q=milk`), an item at
// `/item/7` over it, and `/later/7`: the list, which opens item 7 by itself when told (as a list
// opens a detail once its rows load).

final class ShelfList: Sendable {
    let query: MutableProperty<String>
    /// The item the list opens by itself, later (`/later/7`).
    let opening: Int?
    let services: ShelfServices

    init(query: String = "", opening: Int? = nil, services: ShelfServices) {
        self.query = MutableProperty(query)
        self.opening = opening
        self.services = services
    }

    /// The rows came: the item the address named opens.
    func loaded() {
        if let opening { services.navigator?.push(ShelfItem(number: opening)) }
    }
}

final class ShelfItem: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

/// What a tab's view models get: its navigator (``WebTab``).
final class ShelfServices: Sendable {
    private let tab = Mutex<Navigator?>(nil)
    var navigator: Navigator? { tab.withLock { $0 } }
    init(navigator: Navigator? = nil) { tab.withLock { $0 = navigator } }
}

enum ShelfAddresses: AppAddresses {
    typealias Services = ShelfServices

    static func stack(at address: Address, services: ShelfServices) -> [any AnyObject & Sendable]? {
        let path = address.path
        switch (path.first, path.count) {
        case (nil, _):
            return [ShelfList(query: address["q"] ?? "", services: services)]
        case ("item", 2):
            guard let number = Int(path[1]) else { return nil }
            return [ShelfList(services: services), ShelfItem(number: number)]
        case ("later", 2):
            guard let number = Int(path[1]) else { return nil }
            return [ShelfList(opening: number, services: services)]
        default:
            return nil
        }
    }

    static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case let list as ShelfList: return Address(query: ["q": list.query.value])
        case let item as ShelfItem: return Address(["item", String(item.number)])
        default: return nil
        }
    }
}

func shelfScreens(_ screens: ScreenRegistry<NavigationStack.Page>) {
    screens.register(ShelfList.self, described: { list in
        Screen("Shelf") { ScreenKit.Text(list.query.live.map { "Searching \($0)" }) }
    })
    screens.register(ShelfItem.self, described: { item in
        Screen("Item \(item.number)") { ScreenKit.Text("Item number \(item.number)") }
    })
}

@MainActor
@Suite struct AddressedSessionsTests {
    /// The sessions, and each tab's navigator as the app's services saw it.
    func sessions() -> (WebSessions, () -> Navigator?) {
        // Weak: the test must not keep a closed tab's navigator alive.
        final class Last: Sendable { let navigator = Mutex<WeakNavigator>(WeakNavigator()) }
        struct WeakNavigator { weak var value: Navigator? }
        let last = Last()
        let sessions = WebSessions(addresses: ShelfAddresses.self, servicesPerTab: { tab in
            tab.document.flushesAutomatically = false
            last.navigator.withLock { $0.value = tab.navigator }
            return ShelfServices(navigator: tab.navigator)
        }, screens: shelfScreens)
        return (sessions, { last.navigator.withLock { $0.value } })
    }

    func open(_ sessions: WebSessions, _ address: String) throws -> WebSession {
        guard case .opened(let session) = sessions.open(at: try #require(WebLocation(address))) else {
            throw Refused()
        }
        session.document.flush()
        return session
    }
    struct Refused: Error {}

    /// A deep link opens the stack its address names, the address's screen on top, and the
    /// browser's history gets each screen's address; an address no screen has is a 404.
    @Test func anAddressOpensItsScreensAndTheHistoryFollows() throws {
        let (sessions, navigator) = sessions()
        defer { sessions.closeAll() }   // a tab's navigator and view models hold each other until closed
        let session = try open(sessions, "/item/7")
        #expect(session.document.bodyHTML.contains("Item number 7"))
        #expect(navigator()?.stack.count == 2)
        #expect(session.document.sentLocations == ["/", "/item/7"])
        for unknown in ["/nope", "/item/x", "/item/7/more"] {
            if case .notFound = sessions.open(at: WebLocation(unknown)!) {} else {
                Issue.record("\(unknown) opened a session")
            }
        }
        #expect(sessions.openCount == 1, "a 404 leaves no session")
    }

    /// The address bar follows the view models' state, as they change (a search typed).
    @Test func theAddressFollowsTheState() throws {
        let (sessions, navigator) = sessions()
        defer { sessions.closeAll() }   // a tab's navigator and view models hold each other until closed
        let session = try open(sessions, "/?q=milk")
        let list = try #require(navigator()?.top(ShelfList.self))
        #expect(list.query.value == "milk")
        #expect(session.document.sentLocations == ["/?q=milk"])
        list.query.value = "tea"
        session.document.flush()
        #expect(session.document.sentLocations == ["/?q=tea"])
    }

    /// Forward (an address the screens do not show) opens that address's screens in place of
    /// the stack, root included; Back pops; an address no screen has says so and changes
    /// nothing.
    @Test func forwardAndBackMoveTheScreens() throws {
        let (sessions, navigator) = sessions()
        defer { sessions.closeAll() }   // a tab's navigator and view models hold each other until closed
        let session = try open(sessions, "/?q=milk")
        let first = try #require(navigator()?.top(ShelfList.self))
        try session.document.handle(.navigate(depth: 2, address: "/item/9", sequence: 1))
        session.document.flush()
        #expect(navigator()?.top(ShelfItem.self)?.number == 9)
        #expect(navigator()?.stack.first !== first, "the stack is the address's, root included")
        #expect(session.document.sentLocations == ["/", "/item/9"])
        try session.document.handle(.back(depth: 1, sequence: 2))
        session.document.flush()
        #expect(navigator()?.stack.count == 1)
        #expect(session.document.sentLocations == ["/"])
        try session.document.handle(.navigate(depth: 1, address: "/?q=tea", sequence: 3))
        session.document.flush()
        #expect(navigator()?.top(ShelfList.self)?.query.value == "tea")
        #expect(session.document.sentLocations == ["/?q=tea"])
        try session.document.handle(.navigate(depth: 2, address: "/nope", sequence: 4))
        session.document.flush()
        #expect(session.document.dialogs.count == 1, "the page says no screen has it")
        #expect(navigator()?.top(ShelfList.self)?.query.value == "tea", "and the screens stay")
        #expect(session.document.sentLocations == ["/?q=tea"], "the history is said again")
    }

    /// An address whose screens open later (`/later/7`: the list opens item 7 once its rows
    /// load) leaves the history alone until they are there, so a reload there does not lose the
    /// item's address to the list's.
    @Test func theHistoryWaitsForScreensThatOpenLater() throws {
        let (sessions, navigator) = sessions()
        defer { sessions.closeAll() }   // a tab's navigator and view models hold each other until closed
        let session = try open(sessions, "/later/7")
        #expect(session.document.sentLocations == nil, "the list alone is not what was asked for")
        try #require(navigator()?.top(ShelfList.self)).loaded()
        session.document.flush()
        #expect(session.document.sentLocations == ["/", "/item/7"])
    }

    /// A tab's screens that never get there: the address bar follows what they show after the
    /// patience, and the page's log says why. At the boundary from both sides: as deep as asked
    /// is there; one segment short is not.
    @Test func theHistoryWaitsNoLongerThanThePatience() async throws {
        let document = Document()
        let log = Mutex<[String]>([])
        document.log = { line in log.withLock { $0.append(line) } }
        let arrival = Arrival(document: document, patience: .milliseconds(50))
        arrival.wait(for: Address(["a", "b"]), shown: Address(["a", "b"]))
        #expect(arrival.hasArrived(showing: Address(["a", "b"])), "as deep as asked: there at once")
        arrival.wait(for: Address(["a", "b"]), shown: Address(["a"]))
        #expect(!arrival.hasArrived(showing: Address(["a"])), "one short: waits")
        #expect(!arrival.hasArrived(showing: nil))
        #expect(arrival.hasArrived(showing: Address(["a", "c"])), "as deep: there")
        #expect(arrival.hasArrived(showing: Address(["a"])), "and it stays there")
        arrival.wait(for: Address(["a", "b"]), shown: Address(["a"]))
        for _ in 0..<200 where arrival.isWaiting { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!arrival.isWaiting)
        #expect(arrival.hasArrived(showing: Address(["a"])), "past the patience: what is shown")
        #expect(log.withLock { $0 } == ["the screens did not get to /a/b within 0.05 seconds"])
    }

    /// Closing a tab frees its navigator, view models and pages.
    @Test func aClosedTabIsFreed() throws {
        let (sessions, navigator) = sessions()
        defer { sessions.closeAll() }   // a tab's navigator and view models hold each other until closed
        let tracker = LeakTracker()
        do {
            let session = try open(sessions, "/item/7")
            try session.document.handle(.navigate(depth: 1, address: "/?q=tea", sequence: 1))
            tracker.track(object: try #require(navigator()), name: "navigator")
            tracker.track(object: try #require(navigator()?.top), name: "view model")
            tracker.track(object: session.document, name: "document")
            session.close()
        }
        try tracker.verify()
        #expect(sessions.closedCount == 1)
        #expect(sessions.leakedCount == 0)
    }

    /// An app whose view models are `@MainActor` and whose addresses conform on the main actor:
    /// every session on the main actor, and nothing in the app assumes it.
    @Test func mainActorViewModelsHaveSessionsOnTheMainActor() throws {
        let sessions = WebSessions(onMainActor: ZoneClockAddresses.self, services: ()) { screens in
            screens.register(ZoneClock.self, describedOnMainActor: { clock in
                Screen("Clock") { ScreenKit.Text(clock.time) }
            })
        }
        defer { sessions.closeAll() }
        #expect(sessions.runsOnMainActor)
        let session = try open(sessions, "/?zone=UTC")
        #expect(session.executor.isMain)
        #expect(session.document.bodyHTML.contains("12:00 UTC"))
        #expect(session.document.sentLocations == ["/?zone=UTC"])
        if case .notFound = sessions.open(at: WebLocation("/elsewhere")!) {} else { Issue.record("/elsewhere opened") }
    }
}

@MainActor final class ZoneClock {
    let zone: String
    init(zone: String) { self.zone = zone }
    var time: String { "12:00 \(zone)" }
}

@MainActor enum ZoneClockAddresses: @MainActor AppAddresses {
    typealias Services = Void

    static func stack(at address: Address, services: Void) -> [any AnyObject & Sendable]? {
        address.path.isEmpty ? [ZoneClock(zone: address["zone"] ?? "UTC")] : nil
    }

    static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        (viewModel as? ZoneClock).map { Address(query: ["zone": $0.zone]) }
    }
}
