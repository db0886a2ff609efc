import Dispatch
import FlickrSearch
import GoodsCatalog
import LiveHTTP
import Login
import MovieInfo
import MVVM
import PersonProfile
import ShowcaseCore
import ShowcaseKit
import Signals
import Testing
import TerminalUI

/// T-BEYOND3: the showcase's MVVM apps, their view models bound to TerminalUI screens, on an
/// in-memory terminal (the tmux end-to-end tests drive the binary on a real Linux terminal).
@MainActor @Suite struct InteractiveShowcaseTests {
    @Test func launcherListsEveryAppAndOpensOne() {
        let showcase = InteractiveShowcase(app: nil, live: false, environment: Environment([:]))
        defer { showcase.navigator.close() }
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30))
        let app = TerminalApp(screen: showcase.screen, device: terminal)
        app.drawNow()
        for title in ShowcaseApp.allCases.map(\.title) { #expect(terminal.text.contains(title)) }
        app.handle([.down, .down, .enter])
        app.drawNow()
        #expect(terminal.line(0).hasSuffix("Login"))
        app.handle([.escape])
        app.drawNow()
        #expect(terminal.line(0) == "MVVMKit showcase")
    }

    @Test func liveModeWithoutAKeyOffersToContinueOffline() {
        let showcase = InteractiveShowcase(app: .flickr, live: true, environment: Environment([:]))
        defer { showcase.navigator.close() }
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30))
        let app = TerminalApp(screen: showcase.screen, device: terminal)
        app.drawNow()
        #expect(terminal.text.contains("Live mode needs an API key"))
        #expect(terminal.text.contains("FLICKR_API_KEY"))
        #expect(terminal.text.contains("[ Continue offline ]"))
        app.handle([.enter])
        app.drawNow()
        #expect(terminal.text.contains("Flickr Search"))
        #expect(!terminal.text.contains("Live mode needs"))
    }
}

/// PV-V, issue 18: the person browser loads its people from the service when it is shown
/// (saying so, or why it failed), and Enter opens a person's detail, Back returns.
@MainActor @Suite struct PersonScreenTests {
    let scheduler = VirtualTimeScheduler()
    let terminal = InMemoryTerminal(size: Size(width: 100, height: 30))

    /// Lets the main queue run Observation's re-reads, then draws.
    func mainQueueTurn(_ app: TerminalApp) async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        app.drawNow()
    }

    @Test func loadingThenThePeopleThenADetailAndBack() async {
        defer { scheduler.cancelAll() }
        let showcase = InteractiveShowcase(app: .person, live: false, environment: Environment([:]), scheduler: scheduler)
        defer { showcase.navigator.close() }
        let app = showcase.makeApp(device: terminal)
        app.drawNow()
        #expect(terminal.text.contains("Loading people…"), "\(terminal.text)")
        scheduler.advance(by: .seconds(1))
        await mainQueueTurn(app)
        #expect(!terminal.text.contains("Loading people…"))
        #expect(terminal.text.contains("Dr. Grace Hopper") && terminal.text.contains("› Grace Hopper"), "\(terminal.text)")
        app.handle([.down])
        await mainQueueTurn(app)
        #expect(terminal.text.contains("Born Sunday December 10, 1815"), "the card follows the selection")
        app.handle([.enter])
        app.drawNow()
        #expect(terminal.line(0).hasSuffix("Ada Lovelace"), "\(terminal.text)")
        for field in ["Salutation  —", "First name  Ada", "Last name   Lovelace", "Born        Sunday December 10, 1815", "[ Back ]"] {
            #expect(terminal.text.contains(field), "\(field):\n\(terminal.text)")
        }
        app.handle([.enter])  // Back
        app.drawNow()
        #expect(terminal.text.contains("› Ada Lovelace") && !terminal.text.contains("Salutation"), "\(terminal.text)")
    }

    @Test func aFailedLoadShowsItsReason() async {
        defer { scheduler.cancelAll() }
        let showcase = InteractiveShowcase(app: nil, live: false, environment: Environment([:]), scheduler: scheduler)
        defer { showcase.navigator.close() }
        let service = OfflinePersonService(scheduler: scheduler)
        service.failRequests(with: PersonError("The people service is down."))
        showcase.navigator.push(PersonBrowserViewModel(services: PersonServices(people: service, navigator: showcase.navigator)))
        let app = showcase.makeApp(device: terminal)
        scheduler.advance(by: .seconds(1))
        await mainQueueTurn(app)
        #expect(terminal.text.contains("The people service is down."), "\(terminal.text)")
        #expect(!terminal.text.contains("Loading people…"))
    }
}

/// Issue 17: options given to the interactive mode are used, not silently ignored.
@MainActor @Suite struct InteractiveOptionsTests {
    @Test func flickrStartsWithTheSearch() {
        let harness = ShowcaseHarness(.flickr, options: ShowcaseOptions(search: "sunset"))
        defer { harness.close() }
        #expect(harness.showcase.navigator.top(FlickrSearchResultsViewModel.self)?.title == "sunset")
        #expect(harness.text.contains("120 photos"))
    }

    @Test func moviesStartOnTheListOrTheSearch() {
        let popular = ShowcaseHarness(.movies, options: ShowcaseOptions(list: "popular"))
        defer { popular.close() }
        #expect(popular.text.contains("Popular"))
        #expect(popular.showcase.navigator.top(MoviesTabsViewModel.self)?.list.endpoint.value == .popular)
        let search = ShowcaseHarness(.movies, options: ShowcaseOptions(search: "storm"))
        defer { search.close() }
        #expect(search.text.contains("Paper Storm"))
    }

    @Test func goodsOpenTheCategoryAndLoginIsFilledIn() {
        let goods = ShowcaseHarness(.goods, options: ShowcaseOptions(category: "3"))
        defer { goods.close() }
        #expect(goods.showcase.navigator.top(GoodsListViewModel.self)?.category.value.sortID == "3")
        let login = ShowcaseHarness(.login, options: ShowcaseOptions(user: "ada", password: "lovelace"))
        defer { login.close() }
        #expect(login.showcase.navigator.top(LoginSuccessViewModel.self)?.userNameText == "Signed in as ada", "the command line's login is done")
        let unknown = ShowcaseHarness(.goods, options: ShowcaseOptions(category: "99"))
        defer { unknown.close() }
        #expect(unknown.text.contains("unknown category '99'"))
    }

    @Test func anOptionNoScreenCanTakeIsSaid() {
        let short = ShowcaseHarness(.flickr, options: ShowcaseOptions(search: "cat"))
        defer { short.close() }
        short.settle()
        #expect(short.text.contains("the search needs more than 3 characters: cat"))
        #expect(short.showcase.navigator.top(FlickrSearchViewModel.self)?.searchText.value == "cat", "what could be done is done")
    }
}
