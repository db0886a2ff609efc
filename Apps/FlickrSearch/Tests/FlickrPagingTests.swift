import FlickrSearch
import Foundation
import LiveHTTP
import LoopbackServer
import MVVM
import ScreenKit
import Signals
import SignalsTesting
import Testing

/// FS-P (issue 17): results page to their end; a search with no results says so on the search
/// screen.
@Suite struct FlickrPagingTests {
    /// The results screen as plain text, as a person reads it (the list's last lines).
    func footer(of results: FlickrSearchResultsViewModel) -> String {
        PlainText.render(FlickrScreens.results(results))
    }

    /// FS-P: 120 photos: page 1 (100), then page 2 (20) at the end, then the end marker; rows
    /// keep their view models; no request after the end.
    @Test func resultsPageToTheirEnd() throws {
        let fixture = FlickrFixture(latency: .milliseconds(300))
        fixture.runSearch("sunset")
        let results = try #require(fixture.navigator.top(FlickrSearchResultsViewModel.self))
        #expect(results.items.count == 100)
        #expect(results.summaryText.value == "120 photos (showing 100)")
        #expect(!results.isLoadingMore.value && results.hasMore.value)
        #expect(!footer(of: results).contains("⋯ loading") && !footer(of: results).contains(FlickrSearchResultsViewModel.endText))
        let first = results.items[0]
        results.next()
        #expect(results.isLoadingMore.value)
        #expect(footer(of: results).contains("\n⋯ loading"), "a visible loading-more row")
        fixture.scheduler.advance(by: .seconds(1))
        #expect(results.items.count == 120)
        #expect(results.items[0] === first, "a row keeps its view model (and its counts)")
        #expect(Set(results.items.map(\.photo.identifier)).count == 120, "page 2 is new photos")
        #expect(!results.hasMore.value)
        #expect(footer(of: results).contains("\n— end of results —"), "the end marker under the last photo")
        #expect(results.summaryText.value == "120 photos")
        results.next()
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.service.requests == ["search:sunset", "search:sunset#2"], "page 1 once, page 2 once, nothing after the end")
    }

    /// FS-P with the lifecycle: a covered results screen loads no page; a failed page says why
    /// and can be asked again.
    @Test func aCoveredScreenLoadsNothingAndAFailedPageSaysWhy() throws {
        let fixture = FlickrFixture(latency: .milliseconds(300))
        fixture.runSearch("sunset")
        let results = try #require(fixture.navigator.top(FlickrSearchResultsViewModel.self))
        results.select(index: 0)
        results.next()
        fixture.scheduler.advance(by: .seconds(1))
        #expect(!fixture.service.requests.contains("search:sunset#2"), "covered by the detail: no page loads")
        fixture.navigator.pop()
        fixture.service.failRequests(with: .timeout)
        results.next()
        fixture.scheduler.advance(by: .seconds(1))
        #expect(results.failureText.value == FlickrError.timeout.description)
        #expect(footer(of: results).contains("\n! Could not load: \(FlickrError.timeout.description)"))
        #expect(results.items.count == 100, "the rows stay")
        fixture.service.failRequests(with: nil)
        results.retry()
        fixture.scheduler.advance(by: .seconds(1))
        #expect(results.items.count == 120)
    }

    /// FS-P: a search that finds nothing says so on the search screen; no empty results screen.
    @Test func noResultsAreSaidOnTheSearchScreen() {
        let fixture = FlickrFixture()
        fixture.runSearch("zzzz")
        #expect(fixture.navigator.top === fixture.search, "no results screen")
        #expect(fixture.search.noResultsText.value == "No photos found for “zzzz”.")
        fixture.search.searchText.value = "sunset"
        fixture.search.executeSearch.execute()
        #expect(fixture.search.noResultsText.value == nil, "cleared by the next search")
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.navigator.top(FlickrSearchResultsViewModel.self) != nil)
    }

    /// FS-A1, FS-P: the live client sends `page=` and reads the page back.
    @Test func theLiveClientSendsThePage() throws {
        let server = try LoopbackServer { _ in .json(#"{"photos":{"page":3,"pages":"3","perpage":100,"total":"201","photo":[{"id":"1","owner":"o@N0","secret":"s","server":"2","farm":1,"title":""}]},"stat":"ok"}"#) }
        let service = LiveFlickrService(configuration: .init(apiKey: "k", baseURL: server.baseURL, timeout: .seconds(5)))
        let results = try service.search("sunset", page: 3).blocking(timeout: .seconds(10)).first()
        #expect(server.requests.first?.query["page"] == "3")
        #expect(server.requests.first?.query["per_page"] == "100")
        #expect(results?.page == 3)
        #expect(results?.totalResults == 201)
    }
}
