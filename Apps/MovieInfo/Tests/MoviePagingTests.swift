import Foundation
import LiveHTTP
import LoopbackServer
import MVVM
import MovieInfo
import ScreenKit
import Signals
import SignalsTesting
import Testing

/// MI-P (issue 17): movie lists page to their end.
@Suite struct MoviePagingTests {
    /// The Movies tab as plain text, as a person reads it.
    func drawn(_ tabs: MoviesTabsViewModel) -> String {
        PlainText.render(MovieScreens.movies(tabs))
    }

    /// MI-P: 32 popular movies: page 1 (20), then page 2 (12) at the end, then the end marker;
    /// nothing is asked after the last page.
    @Test func aListPagesToItsEnd() {
        let fixture = MovieFixture()
        let tabs = MoviesTabsViewModel(services: fixture.services, list: .popular)
        let list = tabs.list
        fixture.scheduler.run()
        #expect(list.movies.value.count == 20)
        #expect(list.hasMore.value && !list.isLoadingMore.value, "more to come")
        #expect(!drawn(tabs).contains(MovieListViewModel.endText))
        list.next()
        #expect(list.isLoadingMore.value)
        #expect(drawn(tabs).contains("\n⋯ loading"), "a visible loading-more row")
        #expect(list.movies.value.count == 20, "the movies stay while the next page loads")
        fixture.scheduler.run()
        let popular = OfflineMovieService.catalog.filter { $0.endpoint == .popular }.map(\.movie.title)
        #expect(list.movies.value.map(\.title) == popular)
        #expect(popular.count == 32)
        #expect(!list.hasMore.value && !list.isLoadingMore.value)
        #expect(drawn(tabs).contains("\n" + MovieListViewModel.endText), "the end marker under the last movie")
        list.next()
        fixture.scheduler.run()
        #expect(fixture.service.requests == ["list:popular", "list:popular#2"])
    }

    /// MI-P: switching lists while a page loads drops that page; a failed page keeps the movies,
    /// says why, and is asked again by retry (MI-R).
    @Test func aNewListDropsThePageInFlightAndAFailedPageCanBeRetried() {
        let fixture = MovieFixture()
        let tabs = MoviesTabsViewModel(services: fixture.services, list: .popular)
        let list = tabs.list
        fixture.scheduler.run()
        list.next()
        let shown = fixture.scheduler.record(list.movies.signal.map { $0.map(\.title) })
        list.selectedIndex.value = 2
        fixture.scheduler.run()
        let popularPage2 = Set(OfflineMovieService.catalog.filter { $0.endpoint == .popular }.dropFirst(20).map(\.movie.title))
        #expect(!shown.recordedValues.contains { !popularPage2.isDisjoint(with: $0) }, "the old list's page 2 never shows, not even for a moment")
        let upcoming = OfflineMovieService.catalog.filter { $0.endpoint == .upcoming }.prefix(20).map(\.movie.title)
        #expect(list.movies.value.map(\.title) == Array(upcoming), "no popular page 2 in the upcoming list")
        fixture.service.failRequests(with: .timeout)
        list.next()
        fixture.scheduler.run()
        #expect(list.movies.value.count == 20)
        #expect(list.errorText.value == MovieError.timeout.description)
        #expect(list.moreFailureText.value == MovieError.timeout.description)
        #expect(list.canRetry.value)
        #expect(drawn(tabs).contains("\n! Could not load: \(MovieError.timeout.description)"), "said under the movies")
        #expect(!drawn(tabs).contains("[Retry]"), "not above them too")
        fixture.service.failRequests(with: nil)
        list.retry()
        fixture.scheduler.run()
        #expect(list.movies.value.count == 32)
        #expect(list.errorText.value == nil)
        #expect(fixture.service.requests.filter { $0 == "list:upcoming" }.count == 1, "the retry asked for page 2, not page 1")
    }

    /// MI-S3, MI-P: the live client sends `page=` after the first page.
    @Test func theLiveClientSendsThePage() throws {
        let server = try LoopbackServer { _ in .json(#"{"page":2,"total_results":21,"total_pages":2,"results":[]}"#) }
        let service = LiveMovieService(configuration: .init(credential: .apiKey("k"), baseURL: server.baseURL, timeout: .seconds(5)))
        let response = try service.fetchMovies(from: .topRated, page: 2).blocking(timeout: .seconds(10)).first()
        #expect(server.requests.first?.path == "/3/movie/top_rated")
        #expect(server.requests.first?.query["page"] == "2")
        #expect(response?.page == 2)
    }
}
