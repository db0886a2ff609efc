import Foundation
import MVVM
import MovieInfo
import Signals
import SignalsTesting
import Testing

/// A movie service whose searches take as long as the test says, per query.
final class SlowQueryMovieService: MovieService {
    let base: OfflineMovieService
    let scheduler: TestScheduler
    let delays: [String: Duration]

    init(scheduler: TestScheduler, delays: [String: Duration]) {
        self.scheduler = scheduler
        self.delays = delays
        base = OfflineMovieService(scheduler: scheduler, latency: .milliseconds(1))
    }

    func fetchMovies(from endpoint: Endpoint) -> Signal<MoviesResponse, MovieError> { base.fetchMovies(from: endpoint) }
    func fetchMovie(id: Int) -> Signal<MovieDetail, MovieError> { base.fetchMovie(id: id) }
    func searchMovie(query: String) -> Signal<MoviesResponse, MovieError> {
        base.searchMovie(query: query).delay(for: delays[query] ?? .zero, on: scheduler)
    }
}

/// Tests that kill the mutants that survived before issue 17.
@Suite struct MovieMutantTests {
    /// MI-VM2 [fix]: the old query answers *after* the new one (3 s against 0.5 s). With
    /// flatMap instead of flatMapLatest the old answer would arrive last and overwrite the new
    /// results; with flatMapLatest it was cancelled and never shows.
    @Test func aSlowerOldQueryNeverOverwritesTheNewResults() {
        let scheduler = TestScheduler()
        let navigator = Navigator()
        defer {
            navigator.close()
            scheduler.cancelAll()
        }
        let service = SlowQueryMovieService(scheduler: scheduler, delays: ["midnight": .seconds(3), "golden": .milliseconds(500)])
        let search = MovieSearchViewModel(services: MovieServices(movies: service, navigator: navigator, scheduler: scheduler))
        let shown = scheduler.record(search.movies.signal.map { $0.map(\.title) })
        search.query.value = "midnight"            // sent at 1 s (the throttle window of "")
        scheduler.advance(by: .milliseconds(1_500))
        search.query.value = "golden"              // sent at 2 s, answered at 2.5 s
        scheduler.advance(by: .milliseconds(1_100)) // 2.6 s
        let golden = search.movies.value.map(\.title)
        #expect(!golden.isEmpty && golden.allSatisfy { $0.lowercased().contains("golden") })
        scheduler.advance(by: .seconds(10))          // past 4 s, when "midnight" would answer
        #expect(search.movies.value.map(\.title) == golden, "the old query's answer never shows")
        #expect(!shown.recordedValues.contains { titles in titles.contains { $0.lowercased().contains("midnight") } })
    }

    /// MI-VM3: stars are Int(voteAverage): 7.6 gives 7 (rounding would give 8); 0.5 and 0.
    @Test func starsAreCutNotRounded() {
        #expect(MovieFormat.stars(7.6) == String(repeating: "⭐️", count: 7))
        #expect(MovieFormat.stars(7.6) != String(repeating: "⭐️", count: 8))
        #expect(MovieFormat.stars(9.99) == String(repeating: "⭐️", count: 9))
        #expect(MovieFormat.stars(1.0) == "⭐️")
        #expect(MovieFormat.stars(0) == "No ratings yet")
        let movie = Movie(id: 1, title: "T", overview: "", releaseDate: nil, voteAverage: 7.6, voteCount: 10, posterPath: nil)
        #expect(MovieCellViewModel(movie).ratingText.count == 7)
    }

    /// Issue 17: a runtime of 0 (TMDb's "unknown") reads "Runtime unknown", not "0m".
    @Test func aZeroRuntimeReadsUnknown() {
        #expect(MovieFormat.runtime(0) == "Runtime unknown")
        #expect(MovieFormat.runtime(58) == "58m")
        #expect(MovieFormat.runtime(129) == "2h 9m")
    }
}
