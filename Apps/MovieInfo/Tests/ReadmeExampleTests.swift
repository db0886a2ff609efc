import MovieInfo
import Signals
import SignalsTesting
import Testing

/// The README's first-screen example, exactly as written there, compiles and behaves as it says.
@Suite struct ReadmeExampleTests {
    final class MovieSearchViewModel: Sendable {
        let query = MutableProperty("")                                   // input: the text field
        let movies: Property<[Movie]>                                     // output: the list

        init(service: any MovieService, scheduler: any Scheduler) {
            movies = Property(initial: [], then: query.signal
                .throttle(for: .seconds(1), on: scheduler)                // one request a second
                .removeDuplicates()                                       // none for the same text
                .flatMapLatest { service.searchMovie(query: $0).map(\.results).replaceError(with: []) })
        }                                                                 // a stale answer never wins
    }

    @Test func searchAsYouType() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let service = OfflineMovieService(scheduler: scheduler, latency: .milliseconds(300))
        let viewModel = MovieSearchViewModel(service: service, scheduler: scheduler)
        for (step, text) in ["s", "st", "sto", "stor", "storm"].enumerated() {
            _ = scheduler.schedule(after: .milliseconds(200 * step)) { viewModel.query.value = text }
        }
        scheduler.advance(by: .seconds(3))
        #expect(!viewModel.movies.value.isEmpty)
        #expect(viewModel.movies.value.allSatisfy { $0.title.contains("Storm") })
        #expect(service.requests.filter { $0.hasPrefix("search:") }.count <= 3, "\(service.requests)")
    }
}
