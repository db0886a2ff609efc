@testable import FlickrSearch
import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing

final class FlickrFixture: Sendable {
    let scheduler = TestScheduler()
    let service: OfflineFlickrService
    let navigator = Navigator()
    let services: FlickrServices
    let search: FlickrSearchViewModel

    init(latency: Duration = .milliseconds(700)) {
        service = OfflineFlickrService(scheduler: scheduler, latency: latency)
        services = FlickrServices(search: service, navigator: navigator, scheduler: scheduler)
        search = FlickrSearchViewModel(services: services)
        navigator.push(search)
    }

    /// Pending virtual-time work refers back to the scheduler; drop it with the fixture.
    deinit {
        navigator.close()
        scheduler.cancelAll()
    }

    func runSearch(_ text: String) {
        search.searchText.value = text
        search.executeSearch.execute()
        scheduler.advance(by: .seconds(1))
    }
}

@Suite struct FlickrModelTests {
    /// FS-M1, FS-A2: photos carry title, url and identifier; the url has Flickr's static form.
    @Test func photosAndTheirURLs() {
        let url = FlickrPhoto.imageURL(server: "65535", id: "123", secret: "abc")
        #expect(url.absoluteString == "https://live.staticflickr.com/65535/123_abc_m.jpg")
        let photo = OfflineFlickrService.photos[0]
        #expect(!photo.title.isEmpty && !photo.identifier.isEmpty)
        #expect(photo.url.absoluteString.hasPrefix("https://live.staticflickr.com/"))
        #expect(photo.url.absoluteString.hasSuffix("_m.jpg"))
    }

    /// FS-M2, FS-S1: the offline catalog: real words find results, "sunset" over 100, some none.
    @Test func offlineCatalogAnswersRealWords() throws {
        let scheduler = TestScheduler()
        let service = OfflineFlickrService(scheduler: scheduler, latency: .milliseconds(10))
        #expect(OfflineFlickrService.photos.count >= 300)
        func results(_ text: String) -> FlickrSearchResults? {
            let recorder = scheduler.record(service.search(text))
            scheduler.run()
            #expect(recorder.isCompleted)
            return recorder.recordedValues.first
        }
        let sunset = try #require(results("sunset"))
        #expect(sunset.totalResults > 100)
        #expect(sunset.photos.count == 100, "one page of 100, like per_page=100")
        #expect(sunset.searchString == "sunset")
        for word in ["cat", "bridge", "snow"] {
            #expect((results(word)?.totalResults ?? 0) > 0, "\(word) finds photos")
        }
        #expect(results("zebra")?.totalResults == 0)
        #expect(results("zebra")?.photos.isEmpty == true)
        #expect(results("cats")?.totalResults == results("cat")?.totalResults, "plurals find the same photos")
        #expect(results("sun")?.totalResults == 0, "a 3-letter fragment is not a prefix search")
    }

    /// FS-M3, FS-S1: every photo has metadata.
    @Test func metadataForEveryPhoto() {
        let scheduler = TestScheduler()
        let service = OfflineFlickrService(scheduler: scheduler, latency: .milliseconds(10))
        let recorder = scheduler.record(service.metadata(photoID: OfflineFlickrService.photos[5].identifier))
        scheduler.run()
        #expect(recorder.recordedValues.count == 1)
        #expect(recorder.isCompleted)
    }

    /// FS-S3: each request is independent, and disposing cancels it.
    @Test func requestsAreIndependentAndCancellable() {
        let scheduler = TestScheduler()
        let service = OfflineFlickrService(scheduler: scheduler, latency: .seconds(1))
        let cats = scheduler.record(service.search("cat"))
        let dogs = scheduler.record(service.search("dog"))
        let cancelled = scheduler.record(service.search("bridge"))
        let pending = scheduler.pendingActionCount
        cancelled.dispose()
        #expect(scheduler.pendingActionCount == pending - 1, "disposing cancelled the pending answer")
        scheduler.run()
        #expect(cats.recordedValues.map(\.searchString) == ["cat"])
        #expect(dogs.recordedValues.map(\.searchString) == ["dog"])
        #expect(cancelled.events.isEmpty)
    }

    /// FS-V7: totals read with a grouping separator.
    @Test func groupedCounts() {
        #expect(CountFormat.grouped(1_973) == "1,973")
        #expect(CountFormat.grouped(12) == "12")
        #expect(CountFormat.grouped(1_234_567) == "1,234,567")
    }
}

@Suite struct FlickrSearchViewModelTests {
    /// FS-VM1: title, and validity above 3 characters, distinct changes only.
    @Test func searchIsValidWithMoreThanThreeCharacters() {
        let fixture = FlickrFixture()
        #expect(fixture.search.title == "Flickr Search")
        let valid = Recorder<Bool, Never>()
        valid.subscribe(to: fixture.search.isSearchValid.signal)
        for text in ["s", "su", "sun", "suns", "sunse", "sun"] { fixture.search.searchText.value = text }
        #expect(valid.recordedValues == [false, true, false])
        #expect(!fixture.search.executeSearch.isEnabled.value)
    }

    /// FS-VM1 [fix] (issue 17): the rule counts what the user typed without surrounding spaces,
    /// and the search sends the trimmed text.
    @Test func spacesDoNotCountAndAreNotSent() {
        let fixture = FlickrFixture()
        for text in ["    ", "  cat  ", "\n\t  \n"] {
            fixture.search.searchText.value = text
            #expect(!fixture.search.isSearchValid.value, "\(text.debugDescription) is not a search")
        }
        fixture.search.searchText.value = "  cats "
        #expect(fixture.search.isSearchValid.value)
        fixture.search.executeSearch.execute()
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.search.recentSearches.value.first?.searchString == "cats")
    }

    /// FS-VM1 [fix]: the trim's shortcut (text that begins and ends with a visible ASCII
    /// character is returned as it is) gives what Foundation's trim gives, on generated text:
    /// every edge character from the ASCII range and Foundation's white space, beside others.
    @Test func theTrimsShortcutGivesWhatFoundationGives() {
        let edges: [Unicode.Scalar] = (0...0x7F).compactMap(Unicode.Scalar.init) + ["\u{85}", "\u{A0}", "\u{200B}", "\u{2028}", "\u{3000}", "\u{301}", "é", "🙂"]
        let middles: [String] = ["", "a", "cat", " ", "c a t", "\u{301}", "a\u{301}"]
        for (i, first) in edges.enumerated() {
            for (j, last) in edges.enumerated() {
                let middle = middles[(i + j) % middles.count]  // every middle, the same each run
                for text in ["\(first)\(middle)\(last)", "\(first)", "\(first)\(last)"] {
                    let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    #expect(FlickrSearchViewModel.trimmed(text).unicodeScalars.elementsEqual(expected.unicodeScalars), "\(text.debugDescription)")
                }
            }
        }
        #expect(FlickrSearchViewModel.trimmed("") == "")
        #expect(FlickrSearchViewModel.trimmed("\u{3000}cats\u{85}") == "cats")
    }

    /// FS-VM1: enabled only when valid and not running; success pushes results and records it.
    @Test func executeSearchPushesResultsAndRecordsHistory() {
        let fixture = FlickrFixture()
        fixture.search.searchText.value = "bridge"
        #expect(fixture.search.executeSearch.isEnabled.value)
        fixture.search.executeSearch.execute()
        #expect(fixture.search.isSearching.value)
        #expect(!fixture.search.executeSearch.isEnabled.value, "not while already running")
        fixture.search.executeSearch.execute()
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.service.requests == ["search:bridge"], "the second tap started nothing")
        let results = fixture.navigator.top(FlickrSearchResultsViewModel.self)
        #expect(results?.title == "bridge")
        #expect(fixture.search.recentSearches.value.first?.searchString == "bridge")
    }

    /// FS-VM1, FS-V5: connection errors come from the action and become the alert; text stays.
    @Test func connectionErrorsBecomeTheAlert() {
        let fixture = FlickrFixture()
        let alerts = fixture.scheduler.record(fixture.search.alerts)
        fixture.service.failRequests(with: .transport("The Internet connection appears to be offline."))
        fixture.runSearch("sunset")
        #expect(alerts.recordedValues.count == 1)
        #expect(alerts.recordedValues.first?.title == "Connection Error")
        #expect(alerts.recordedValues.first?.message == "Could not reach Flickr: The Internet connection appears to be offline.", "FS-E: the reason")
        #expect(alerts.recordedValues.first?.dismiss == "OK")
        #expect(fixture.search.searchText.value == "sunset", "the typed text stays")
        #expect(fixture.navigator.top === fixture.search)
        #expect(fixture.search.executeSearch.isEnabled.value, "the user can try again")
    }

    /// FS-VM1b: newest on top; a repeated search moves to the top ([fix] by value); at most 10;
    /// [fix] a search without photos has no thumbnail and does not crash.
    @Test func recentSearchesRules() {
        let fixture = FlickrFixture()
        for word in ["cats", "dogs", "zebra", "cats"] { fixture.runSearch(word) }
        let list = fixture.search.recentSearches.value
        #expect(list.map(\.searchString) == ["cats", "zebra", "dogs"])
        #expect(list.first { $0.searchString == "zebra" }?.thumbnail == nil)
        #expect(list.first?.thumbnail != nil)
        for word in ["sun1", "sun2", "sun3", "sun4", "sun5", "sun6", "sun7", "sun8", "sunset", "bridge"] { fixture.runSearch(word) }
        #expect(fixture.search.recentSearches.value.count == 10)
        #expect(fixture.search.recentSearches.value.first?.searchString == "bridge")
        #expect(!fixture.search.recentSearches.value.contains { $0.searchString == "cats" }, "the oldest fell off")
    }

    /// FS-VM1b, FS-V7: rows show the text and the grouped total.
    @Test func recentRowsFormatTotals() {
        let fixture = FlickrFixture()
        fixture.runSearch("sunset")
        let row = fixture.search.recentRows.value.first
        #expect(row?.text == "sunset")
        #expect(row?.totalText == CountFormat.grouped(fixture.search.recentSearches.value[0].totalResults))
    }

    /// FS-VM1b: selecting a recent search sets the text and runs it again.
    @Test func selectingARecentSearchRunsItAgain() {
        let fixture = FlickrFixture()
        fixture.runSearch("cats")
        fixture.runSearch("bridge")
        fixture.navigator.pop()
        fixture.navigator.pop()
        fixture.search.searchText.value = "something else"
        fixture.search.selectRecentSearch(at: 1)
        #expect(fixture.search.searchText.value == "cats")
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.service.requests.last == "search:cats")
        #expect(fixture.search.recentSearches.value.first?.searchString == "cats")
        #expect(fixture.navigator.top(FlickrSearchResultsViewModel.self)?.title == "cats")
    }
}

@Suite struct FlickrServicesTests {
    /// FS-S2: the view models get the search service and navigation through one services object;
    /// the search view model drives navigation by pushing the results view model, and the view
    /// layer maps that type to a screen.
    @MainActor @Test func viewModelsNavigateThroughTheServices() throws {
        let fixture = FlickrFixture()
        fixture.runSearch("bridge")
        let pushed = try #require(fixture.navigator.top(FlickrSearchResultsViewModel.self))
        let registry = ScreenRegistry<String>()
        registry.register(FlickrSearchResultsViewModel.self) { "results screen: \($0.title)" }
        #expect(try registry.screen(for: pushed) == "results screen: bridge")
        #expect(throws: UnregisteredScreenError.self, "the search screen is not registered in this test") {
            try registry.screen(for: fixture.search)
        }
    }
}

@Suite struct FlickrResultsTests {
    /// FS-VM2: the results screen is titled by the search string, one item per photo.
    @Test func oneItemPerPhoto() {
        let fixture = FlickrFixture()
        fixture.runSearch("cats")
        let results = fixture.navigator.top(FlickrSearchResultsViewModel.self)!
        #expect(results.title == "cats")
        #expect(results.items.count == results.results.photos.count)
        #expect(results.items.first?.title == results.results.photos.first?.title)
    }

    /// FS-VM3: counts absent until loaded; loaded after one second of visibility.
    @Test func metadataLoadsAfterOneSecondOfVisibility() {
        let fixture = FlickrFixture(latency: .milliseconds(300))
        fixture.runSearch("cats")
        let item = fixture.navigator.top(FlickrSearchResultsViewModel.self)!.items[0]
        #expect(item.favourites.value == nil && item.comments.value == nil)
        #expect(item.countsText.value == nil, "FS-V8: counts are shown only once loaded")
        item.isVisible.value = true
        fixture.scheduler.advance(by: .milliseconds(999))
        #expect(!fixture.service.requests.contains("metadata:\(item.photo.identifier)"))
        fixture.scheduler.advance(by: .milliseconds(1))
        #expect(fixture.service.requests.contains("metadata:\(item.photo.identifier)"))
        fixture.scheduler.advance(by: .milliseconds(300))
        #expect(item.favourites.value != nil && item.comments.value != nil)
        #expect(item.countsText.value?.contains("♥") == true)
    }

    /// FS-VM3: hidden before the second passes → no fetch; [fix] the next visibility re-arms it.
    @Test func hidingCancelsAndTheNextVisibilityReArms() {
        let fixture = FlickrFixture(latency: .milliseconds(300))
        fixture.runSearch("cats")
        let item = fixture.navigator.top(FlickrSearchResultsViewModel.self)!.items[1]
        let request = "metadata:\(item.photo.identifier)"
        item.isVisible.value = true
        fixture.scheduler.advance(by: .milliseconds(500))
        item.isVisible.value = false
        fixture.scheduler.advance(by: .seconds(2))
        #expect(!fixture.service.requests.contains(request))
        item.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.service.requests.filter { $0 == request }.count == 1, "re-armed on the new visibility")
        fixture.scheduler.advance(by: .seconds(1))
        item.isVisible.value = false
        item.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(2))
        #expect(fixture.service.requests.filter { $0 == request }.count == 1, "no refetch once loaded")
    }

    /// FS-VM3: metadata errors leave the counts absent (the row says "counts unavailable":
    /// FlickrCountsTests).
    @Test func metadataErrorsAreIgnored() {
        let fixture = FlickrFixture(latency: .milliseconds(300))
        fixture.runSearch("cats")
        let item = fixture.navigator.top(FlickrSearchResultsViewModel.self)!.items[2]
        fixture.service.failRequests(with: .api(code: 1, message: "Photo not found"))
        item.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(2))
        #expect(item.favourites.value == nil)
    }

    /// FS: the whole app without a view: search → results → metadata → back → recent search.
    @Test func wholeAppFlowWithoutAView() {
        let fixture = FlickrFixture()
        fixture.search.searchText.value = "snow"
        fixture.search.executeSearch.execute()
        fixture.scheduler.advance(by: .seconds(1))
        let results = fixture.navigator.top(FlickrSearchResultsViewModel.self)!
        for item in results.items.prefix(3) { item.isVisible.value = true }
        fixture.scheduler.advance(by: .seconds(2))
        #expect(results.items.prefix(3).allSatisfy { $0.favourites.value != nil })
        #expect(results.items.dropFirst(3).allSatisfy { $0.favourites.value == nil }, "only visible rows load")
        results.back()
        #expect(fixture.navigator.top === fixture.search)
        #expect(fixture.search.recentRows.value.first?.text == "snow")
    }
}
