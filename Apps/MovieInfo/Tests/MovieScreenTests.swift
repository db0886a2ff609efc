import MVVM
import MovieInfo
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 25: Movie info driven through its screens, headless, in virtual time.
@MainActor @Suite struct MovieScreenTests {
    /// MI-1, MI-2, MI-VM2, MI-S5: the Movies tab opens on Now Playing; Top Rated replaces the
    /// list; on the Search tab the hint shows, "storm" finds at most five movies once the
    /// throttle and the service's latency pass; a result opens its detail with its facts; Back
    /// returns to the same results.
    @Test func listsSearchAndADetail() throws {
        let fixture = MovieFixture()
        let registry = ScreenRegistry<Screen>()
        MovieScreens.register(in: registry)
        fixture.navigator.push(MoviesTabsViewModel(services: fixture.services))
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        #expect(tester.title == "Movies")
        tester.advance(by: .seconds(1))
        #expect(tester.contains("(•) Now Playing"))
        let nowPlaying = try tester.rows(of: "Movies").map(\.title)
        #expect(!nowPlaying.isEmpty)
        try tester.choose("Top Rated")
        tester.advance(by: .seconds(1))
        let topRated = try tester.rows(of: "Movies").map(\.title)
        #expect(!topRated.isEmpty && topRated != nowPlaying)

        try tester.choose("Search")
        #expect(tester.contains(MovieSearchViewModel.hint))
        try tester.type("storm", into: "Search")
        tester.advance(by: .seconds(2))
        let results = try tester.rows(of: "Results")
        #expect(!results.isEmpty && results.count <= MovieSearchViewModel.maximumResults)
        #expect(results.allSatisfy { $0.title.lowercased().contains("storm") })
        try tester.select(row: 0, in: "Results")
        tester.advance(by: .seconds(1))
        #expect(tester.title == results[0].title.components(separatedBy: "  ")[0])
        #expect(tester.contains("Released  "))
        #expect(tester.contains("Runtime   "))
        tester.back()
        #expect(tester.title == "Movies")
        #expect(try tester.rows(of: "Results") == results)
    }

    /// MI-R: a failed list says why, and r (or Retry) asks again.
    @Test func aFailedListIsRetriedWithItsKey() throws {
        let fixture = MovieFixture()
        fixture.service.failRequests(with: .transport("offline"))
        let registry = ScreenRegistry<Screen>()
        MovieScreens.register(in: registry)
        fixture.navigator.push(MoviesTabsViewModel(services: fixture.services))
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        tester.advance(by: .seconds(1))
        #expect(tester.contains("offline"))
        #expect(tester.contains("[Retry]"))
        fixture.service.failRequests(with: nil)
        try tester.press(key: .character("r"))
        tester.advance(by: .seconds(1))
        #expect(try !tester.rows(of: "Movies").isEmpty)
        #expect(!tester.contains("[Retry]"))
    }
}
