import FlickrSearch
import MVVM
import Signals
import SignalsTesting
import Testing

/// Issue 16/18: the view-model lifecycle at work in the Flickr app. A screen the user has left
/// does not navigate and does not fetch.
@Suite struct FlickrLifecycleTests {
    /// Whatever was on screen before the app (the launcher).
    final class Launcher: Sendable {}
    /// A screen covering another (a detail, a dialog).
    final class Cover: Sendable {}

    /// The launcher, the search screen over it, and a search for `text` in flight (answering
    /// after 2 s).
    static func searchFromTheLauncher(_ text: String) -> (TestScheduler, Navigator, FlickrSearchViewModel) {
        let scheduler = TestScheduler()
        let navigator = Navigator(root: Launcher())
        let services = FlickrServices(search: OfflineFlickrService(scheduler: scheduler, latency: .seconds(2)), navigator: navigator, scheduler: scheduler)
        let search = FlickrSearchViewModel(services: services)
        navigator.push(search)
        search.searchText.value = text
        search.executeSearch.execute()
        return (scheduler, navigator, search)
    }

    /// Esc while a search is in flight: the search is cancelled (no recent-search entry, the
    /// spinner stops), and the results screen never appears over the launcher.
    @Test func leavingDuringASearchCancelsItAndOpensNothing() {
        let (scheduler, navigator, search) = Self.searchFromTheLauncher("sunset")
        defer { scheduler.cancelAll(); navigator.close() }
        scheduler.advance(by: .seconds(1))
        #expect(search.isSearching.value)
        navigator.pop()  // Esc
        #expect(!search.isSearching.value, "the request is cancelled with the screen")
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top(Launcher.self) != nil, "no results screen over the launcher")
        #expect(navigator.stack.count == 1)
        #expect(search.recentSearches.value.isEmpty, "the answer never arrived")
    }

    /// Issue 43: an address's search (`/photo/ID?q=…`) runs once the screen shows, opens its
    /// results, then the photo. A photo named by a search that found nothing is forgotten: a
    /// later search by hand whose results hold it opens only the results.
    @Test func anAddressSearchOpensItsPhotoAndOnlyFromItsOwnResults() throws {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let navigator = Navigator(root: Launcher())
        defer { navigator.close() }
        let services = FlickrServices(search: OfflineFlickrService(scheduler: scheduler, latency: .seconds(2)), navigator: navigator, scheduler: scheduler)
        let search = FlickrSearchViewModel(services: services)
        search.search("sunset", thenOpen: "5100000")
        scheduler.advance(by: .seconds(5))
        #expect(!search.isSearching.value, "nothing runs before the screen shows")
        navigator.push(search)
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top(FlickrPhotoDetailViewModel.self)?.photo.identifier == "5100000")
        #expect(navigator.stack.count == 4)

        let again = FlickrSearchViewModel(services: services)
        navigator.push(again)
        again.search("zzzzzz", thenOpen: "5100000")
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top === again, "nothing found, nothing opened")
        again.searchText.value = "sunset"
        again.executeSearch.execute()
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top(FlickrSearchResultsViewModel.self) != nil, "the results of the search by hand, and no photo over them")
    }

    /// The same search, left on screen, opens the results (the control case).
    @Test func aSearchOnScreenOpensItsResults() {
        let (scheduler, navigator, search) = Self.searchFromTheLauncher("sunset")
        defer { scheduler.cancelAll(); navigator.close() }
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top(FlickrSearchResultsViewModel.self)?.title == "sunset")
        #expect(!search.lifecycle.isActive.value, "covered by the results")
    }

    /// FS-VM3 with the lifecycle: a visible row of a covered results screen fetches no counts;
    /// back on screen, the row's second starts again and the counts load (refresh on return).
    @Test func rowsOfACoveredResultsScreenFetchNothingUntilItReturns() throws {
        let fixture = FlickrFixture()
        fixture.runSearch("sunset")
        let results = try #require(fixture.navigator.top(FlickrSearchResultsViewModel.self))
        let item = results.items[0]
        item.isVisible.value = true
        fixture.scheduler.advance(by: .milliseconds(500))
        fixture.navigator.push(Cover())
        #expect(!results.lifecycle.isActive.value)
        fixture.scheduler.advance(by: .seconds(5))
        #expect(item.countsText.value == nil, "no fetch for a screen the user cannot see")
        fixture.navigator.pop()
        #expect(results.lifecycle.isActive.value)
        fixture.scheduler.advance(by: .seconds(5))
        #expect(item.countsText.value != nil, "counts load once the screen is back")
    }
}
