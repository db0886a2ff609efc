import Foundation
import MovieInfo
import Signals
import SignalsTesting
import Testing

// README.md's Swift blocks, as the page has them (`everySwiftBlockOfTheReadmeIsHere` checks that
// each is in this file), and tests that check what the page says of them.

final class MovieSearchViewModel: Sendable {
    let query = MutableProperty("")                                   // input: the text field
    let movies: Property<[Movie]>                                     // output: the list

    init(service: any MovieService, scheduler: any Scheduler) {
        movies = Property(initial: [], then: query.changes            // what is typed (not "" at startup)
            .throttle(for: .seconds(1), on: scheduler)                // one request a second
            .removeDuplicates()                                       // none for the same text
            .flatMapLatest { service.searchMovie(query: $0).map(\.results).replaceError(with: []) })
    }                                                                 // a stale answer never wins
}

@Suite struct ReadmeTests {
    /// The movie service, counting the searches.
    final class CountingMovieService: MovieService {
        let base: OfflineMovieService
        let searches = Locked<[String]>([])

        init(base: OfflineMovieService) { self.base = base }

        func fetchMovies(from endpoint: Endpoint) -> Signal<MoviesResponse, MovieError> { base.fetchMovies(from: endpoint) }
        func fetchMovie(id: Int) -> Signal<MovieDetail, MovieError> { base.fetchMovie(id: id) }
        func searchMovie(query: String) -> Signal<MoviesResponse, MovieError> {
            searches.withLock { $0.append(query) }
            return base.searchMovie(query: query)
        }
    }

    /// The first example: nothing is searched at startup, at most one search a second, the same
    /// text never twice, and the movies are the last query's.
    @Test func theFirstExampleSearchesWhatIsTypedOnceASecond() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let service = CountingMovieService(base: OfflineMovieService(scheduler: scheduler))
        let viewModel = MovieSearchViewModel(service: service, scheduler: scheduler)
        scheduler.advance(by: .seconds(5))
        #expect(service.searches.value.isEmpty, "nothing is searched at startup")
        viewModel.query.value = "s"
        viewModel.query.value = "st"
        viewModel.query.value = "storm"
        scheduler.advance(by: .seconds(3))
        #expect(service.searches.value == ["s", "storm"], "the first at once, then the latest of the second")
        #expect(!viewModel.movies.value.isEmpty && viewModel.movies.value.allSatisfy { $0.title.contains("Storm") })
        viewModel.query.value = "storm"
        scheduler.advance(by: .seconds(3))
        #expect(service.searches.value == ["s", "storm"], "the same text is not searched again")
    }

    /// The virtual-time example, as the page has it.
    @Test func theVirtualTimeExample() {
        let scheduler = TestScheduler()                // one tick = 1 s of virtual time
        let source = scheduler.cold("-a-b-|")
        #expect(scheduler.marbles(of: source.signal.map { $0.uppercased() }) == "-A-B-|")
        #expect(source.subscriptions == ["^----!"])
    }

    @Test func everySwiftBlockOfTheReadmeIsHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        func normalized(_ text: String) -> String {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
        let source = normalized(try String(contentsOf: here, encoding: .utf8))
        let blocks = ArticleCode.blocks(in: readme, language: "swift")
        #expect(blocks.count == 2)
        for block in blocks {
            #expect(source.contains(normalized(block)), "this block of README.md is not in ReadmeTests.swift:\n\(block)")
        }
    }
}
