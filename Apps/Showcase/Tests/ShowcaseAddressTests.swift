import Dispatch
import MVVM
import ShowcaseCore
import Signals
import SignalsTesting
import Testing

/// Issue 43: every screen of every app has an address, declared beside it in its app; an
/// address builds its stack directly (nothing pressed), and the address of what it opened is
/// the address again.
@MainActor @Suite struct ShowcaseAddressTests {
    /// Addresses of every app's screens, each with the screens it must end on (the view models'
    /// type names, bottom first, the launcher left out).
    static let samples: [(address: String, shows: [String])] = [
        ("/flickr", ["FlickrSearchViewModel"]),
        ("/flickr/results?q=sunset", ["FlickrSearchViewModel", "FlickrSearchResultsViewModel"]),
        ("/flickr/photo/5100000?q=sunset", ["FlickrSearchViewModel", "FlickrSearchResultsViewModel", "FlickrPhotoDetailViewModel"]),
        ("/person", ["PersonBrowserViewModel"]),
        ("/person/2", ["PersonBrowserViewModel", "PersonDetailViewModel"]),
        ("/person/settings", ["PersonBrowserViewModel", "PersonSettingsViewModel"]),
        ("/login?user=ada", ["LoginViewModel"]),
        ("/login/sign-up?user=ada", ["LoginViewModel", "LoginSignUpViewModel"]),
        ("/movies/top-rated", ["MoviesTabsViewModel"]),
        ("/movies/search?q=storm", ["MoviesTabsViewModel"]),
        ("/movies/popular/movie/1013", ["MoviesTabsViewModel", "MovieDetailViewModel"]),
        ("/movies/search/movie/1013?q=storm", ["MoviesTabsViewModel", "MovieDetailViewModel"]),
        ("/goods", ["CategoryListViewModel"]),
        ("/goods/2?pages=3", ["CategoryListViewModel", "GoodsListViewModel"]),
        ("/goods/2/item/2-7?pages=2", ["CategoryListViewModel", "GoodsListViewModel", "GoodsDetailViewModel"]),
        ("/goods-dc", ["GoodsDataControllerCategories"]),
        ("/goods-dc/5?pages=2", ["GoodsDataControllerCategories", "GoodsDataControllerPage"]),
        ("/goods-dc/5/item/5-1", ["GoodsDataControllerCategories", "GoodsDataControllerPage", "GoodsDetailViewModel"]),
        ("/todo?filter=done&q=milk", ["TodoListViewModel"]),
        ("/new-issue?title=Crash", ["NewIssueViewModel"]),
    ]

    func mainQueueTurn() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    /// Opens `address` headless on the offline catalogs and lets the screens get there; returns
    /// the stack and each screen's address.
    func open(_ text: String) async throws -> (stack: [any AnyObject & Sendable], addresses: [String])? {
        let address = try #require(Self.parse(text))
        guard let route = ShowcaseAddresses.route(address), let app = route.app else { return nil }
        let scheduler = TestScheduler()
        let navigator = Navigator()
        let factory = ServiceFactory(mode: .offline, scheduler: scheduler, navigator: navigator)
        guard let stack = try ShowcaseAddresses.stack(of: app, at: route.address, factory: factory) else { return nil }
        navigator.push(all: stack)
        for _ in 0..<20 {
            scheduler.advance(by: .seconds(1))
            await mainQueueTurn()
        }
        let shown = navigator.stack
        navigator.close()
        return (shown, ShowcaseAddresses.addresses(of: shown, in: app).map(\.description))
    }

    /// `/a/b?x=1&y=2` (no encoding: the samples need none).
    static func parse(_ text: String) -> Address? {
        let parts = text.split(separator: "?", maxSplits: 1).map(String.init)
        guard let path = parts.first, path.hasPrefix("/") else { return nil }
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { item -> Address.Item in
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            return Address.Item(pair[0], pair.count > 1 ? pair[1] : "")
        } : []
        return Address(path.split(separator: "/").map(String.init), query: query)
    }

    /// Each sample opens its screens, and the top's address is the sample: built from the
    /// address, read back from the view models.
    @Test func everyAddressOpensItsScreensAndReadsBackTheSame() async throws {
        for sample in Self.samples {
            let opened = try #require(try await open(sample.address), "\(sample.address) opened nothing")
            #expect(opened.stack.map { String(describing: type(of: $0)) } == sample.shows, "\(sample.address)")
            #expect(opened.addresses.last == sample.address, "\(sample.address): \(opened.addresses)")
        }
    }

    /// Screens whose address opens another screen, by design, with why; each is checked below.
    static let opensElsewhere: [String: (address: String, opens: [String], why: String)] = [
        "LoginSuccessViewModel": ("/login/welcome?user=ada", ["LoginViewModel"], "the password is never in an address: the user signs in again"),
    ]

    /// A screen registered without an address is caught here: every view-model type the
    /// showcase's screens draw is reached by an address (the launcher's is `/`), or is one of
    /// ``opensElsewhere``, whose address opens what it says.
    @Test func everyScreenHasAnAddress() async throws {
        var reached: Set<String> = ["LauncherViewModel"]
        for (type, elsewhere) in Self.opensElsewhere {
            let opened = try #require(try await open(elsewhere.address), "\(elsewhere.address)")
            #expect(opened.stack.map { String(describing: Swift.type(of: $0)) } == elsewhere.opens, "\(type): \(elsewhere.why)")
            reached.insert(type)
        }
        for sample in Self.samples {
            guard let opened = try await open(sample.address) else { continue }
            reached.formUnion(opened.stack.map { String(describing: type(of: $0)) })
        }
        let drawn = ShowcaseScreens.registry().viewModelTypes.map { String(describing: $0) }
        let missing = drawn.filter { !reached.contains($0) }
        #expect(missing.isEmpty, "screens no address opens: \(missing)")
        #expect(drawn.count == 19, "every app's screens are drawn: \(drawn)")
    }

    /// Addresses no screen has: an unknown app, path or item kind, a value an app cannot read.
    @Test func anAddressNoScreenHasOpensNothing() async throws {
        for address in ["/nope", "/flickr/nope", "/flickr/results", "/person/x", "/person/-1", "/person/settings/x", "/login/nope",
                        "/movies/nope", "/movies/movie/1013", "/movies/popular/movie/x", "/movies/popular/film/1013",
                        "/goods/999", "/goods/2?pages=0", "/goods/2?pages=51", "/goods/2/item", "/goods/2/thing/1", "/goods-dc/2?pages=-1", "/todo/x"] {
            #expect(try await open(address) == nil, "\(address)")
        }
    }
}
