import FlickrSearch
import GoodsCatalog
import LiveHTTP
import Login
import MovieInfo
import MVVM
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

/// Issue 17: options given to the interactive mode are used, not silently ignored.
@MainActor @Suite struct InteractiveOptionsTests {
    @Test func flickrStartsWithTheSearch() {
        let harness = ShowcaseHarness(.flickr, options: PlainOptions(search: "sunset"))
        defer { harness.close() }
        #expect(harness.showcase.navigator.top(FlickrSearchResultsViewModel.self)?.title == "sunset")
        #expect(harness.text.contains("120 photos"))
    }

    @Test func moviesStartOnTheListOrTheSearch() {
        let popular = ShowcaseHarness(.movies, options: PlainOptions(list: "popular"))
        defer { popular.close() }
        #expect(popular.text.contains("Popular"))
        #expect(popular.showcase.navigator.top(MoviesTabsViewModel.self)?.list.endpoint.value == .popular)
        let search = ShowcaseHarness(.movies, options: PlainOptions(search: "storm"))
        defer { search.close() }
        #expect(search.text.contains("Paper Storm"))
    }

    @Test func goodsOpenTheCategoryAndLoginIsFilledIn() {
        let goods = ShowcaseHarness(.goods, options: PlainOptions(category: "3"))
        defer { goods.close() }
        #expect(goods.showcase.navigator.top(GoodsListViewModel.self)?.category.value.sortID == "3")
        let login = ShowcaseHarness(.login, options: PlainOptions(user: "ada", password: "lovelace"))
        defer { login.close() }
        #expect(login.showcase.navigator.top(LoginViewModel.self)?.isLoginEnabled.value == true)
        let unknown = ShowcaseHarness(.goods, options: PlainOptions(category: "99"))
        defer { unknown.close() }
        #expect(unknown.text.contains("Unknown category '99'"))
    }
}
