import Foundation
import MVVM
import Signals

/// The TMDb calls the app makes; each a cold stream, one request per subscription, cancelled
/// when disposed.
public protocol MovieService: Sendable {
    /// MI-S3: a list's first page.
    func fetchMovies(from endpoint: Endpoint) -> Signal<MoviesResponse, MovieError>
    /// MI-S3, MI-P: page `page` (from 1) of a list, 20 movies a page.
    func fetchMovies(from endpoint: Endpoint, page: Int) -> Signal<MoviesResponse, MovieError>
    /// MI-S4: a title search.
    func searchMovie(query: String) -> Signal<MoviesResponse, MovieError>
    /// MI-S5: one movie with videos and credits.
    func fetchMovie(id: Int) -> Signal<MovieDetail, MovieError>
}

extension MovieService {
    /// For a service with one page only: page 1 is ``fetchMovies(from:)``; later pages are empty.
    public func fetchMovies(from endpoint: Endpoint, page: Int) -> Signal<MoviesResponse, MovieError> {
        page <= 1 ? fetchMovies(from: endpoint) : .just(MoviesResponse(page: page, totalResults: 0, totalPages: 1, results: []))
    }
}

/// What the movie view models get.
public struct MovieServices: Sendable {
    public let movies: any MovieService
    public let navigator: any NavigationService
    public let scheduler: any Scheduler

    public init(movies: any MovieService, navigator: any NavigationService, scheduler: any Scheduler) {
        self.movies = movies
        self.navigator = navigator
        self.scheduler = scheduler
    }
}

/// The embedded movie catalog (the default): 128 movies spread over the four lists, searchable
/// by title words, with a detail record each. Answers after `latency` and can be told to fail.
public final class OfflineMovieService: MovieService {
    /// Every movie with the list it belongs to.
    public static let catalog: [(movie: Movie, endpoint: Endpoint)] = makeCatalog()
    static let pageSize = 20

    private let scheduler: any Scheduler
    private let latency: Duration
    private let forcedError = Locked<MovieError?>(nil)
    private let requestLog = Locked<[String]>([])

    public init(scheduler: any Scheduler, latency: Duration = .milliseconds(500)) {
        self.scheduler = scheduler
        self.latency = latency
    }

    /// Makes every following request fail with `error` (`nil` to stop).
    public func failRequests(with error: MovieError?) {
        forcedError.withLock { $0 = error }
    }

    /// The requests made so far ("list:popular", "search:star", "movie:12"), for tests.
    public var requests: [String] { requestLog.value }

    public func fetchMovies(from endpoint: Endpoint) -> Signal<MoviesResponse, MovieError> {
        fetchMovies(from: endpoint, page: 1)
    }

    /// MI-P: page `page` of 20 (logged "list:popular" for page 1, "list:popular#2" after).
    public func fetchMovies(from endpoint: Endpoint, page: Int) -> Signal<MoviesResponse, MovieError> {
        respond(page <= 1 ? "list:\(endpoint.rawValue)" : "list:\(endpoint.rawValue)#\(page)") {
            Self.page(Self.catalog.filter { $0.endpoint == endpoint }.map(\.movie), page: page)
        }
    }

    public func searchMovie(query: String) -> Signal<MoviesResponse, MovieError> {
        respond("search:\(query)") {
            let words = Self.words(query)
            let found = Self.catalog.map(\.movie).filter { movie in
                let titleWords = Self.words(movie.title)
                return !words.isEmpty && words.allSatisfy { word in titleWords.contains { $0.hasPrefix(word) } }
            }
            return Self.page(found)
        }
    }

    public func fetchMovie(id: Int) -> Signal<MovieDetail, MovieError> {
        respond("movie:\(id)") { () -> Result<MovieDetail, MovieError> in
            guard let movie = Self.catalog.first(where: { $0.movie.id == id })?.movie else {
                return .failure(.invalidResponse(status: 404, message: "The resource you requested could not be found."))
            }
            return .success(Self.detail(of: movie))
        }
    }

    private func respond<Value: Sendable>(_ request: String, _ make: @escaping @Sendable () -> Value) -> Signal<Value, MovieError> {
        respond(request) { () -> Result<Value, MovieError> in .success(make()) }
    }

    private func respond<Value: Sendable>(_ request: String, _ make: @escaping @Sendable () -> Result<Value, MovieError>) -> Signal<Value, MovieError> {
        Signal<Value, MovieError>.deferred { [self] in
            requestLog.withLock { $0.append(request) }
            let answer: Signal<Value, MovieError>
            if let error = forcedError.value {
                answer = .fail(error)
            } else {
                switch make() {
                case .success(let value): answer = .just(value)
                case .failure(let error): answer = .fail(error)
                }
            }
            return answer.delaySubscription(for: latency, on: scheduler)
        }
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    static func page(_ movies: [Movie], page: Int = 1) -> MoviesResponse {
        let start = min(movies.count, max(0, page - 1) * pageSize)
        return MoviesResponse(
            page: page,
            totalResults: movies.count,
            totalPages: max(1, (movies.count + pageSize - 1) / pageSize),
            results: Array(movies[start...].prefix(pageSize))
        )
    }

    static let genreNames = ["Drama", "Comedy", "Thriller", "Science Fiction", "Animation", "Adventure", "Romance", "Mystery", "Documentary", "Family"]
    static let actors = ["Mei Lin", "Jonas Berg", "Ana Sousa", "Kofi Mensah", "Lea Novak", "Ravi Iyer", "Sofia Rossi", "Tomás Vidal", "Hana Sato", "Eli Cohen", "Nora Quinn", "Omar Haddad"]

    static func detail(of movie: Movie) -> MovieDetail {
        let seed = movie.id
        let genres = [genreNames[seed % genreNames.count], genreNames[(seed / 3 + 4) % genreNames.count]]
        let cast = (0..<5).map { actors[(seed + $0 * 5) % actors.count] }
        return MovieDetail(
            movie: movie,
            genres: Array(Set(genres)).sorted(),
            runtime: seed % 9 == 0 ? nil : 84 + (seed * 7) % 90,
            cast: cast,
            trailerKey: seed % 5 == 0 ? nil : String(format: "tr%05d", seed)
        )
    }

    private static func makeCatalog() -> [(movie: Movie, endpoint: Endpoint)] {
        let first = ["The Silent", "Midnight", "Paper", "Northern", "Last", "Hidden", "Electric", "Golden", "Winter", "Broken", "Distant", "Secret", "Crimson", "Wandering", "Glass", "Iron"]
        let second = ["River", "Garden", "Star", "Harbour", "Letter", "Kingdom", "Voyage", "Orchard", "Signal", "Lantern", "Horizon", "Machine", "Island", "Promise", "Storm", "Mirror"]
        let places = ["a fishing town", "the old capital", "a mountain pass", "a floating city", "the night market", "a lighthouse", "an empty stadium", "a border village"]
        let plots = ["a retired pilot", "two estranged sisters", "a young cartographer", "a street musician", "an engineer", "a stubborn detective", "a family of bakers", "a lonely robot"]
        var catalog: [(Movie, Endpoint)] = []
        var usedTitles = Set<String>()
        var index = 0
        var candidate = 0
        while catalog.count < 128 {
            let title = "\(first[candidate % first.count]) \(second[(candidate * 7 + candidate / first.count) % second.count])"
            candidate += 1
            if usedTitles.contains(title) { continue }
            usedTitles.insert(title)
            let id = 1_000 + index * 13
            let endpoint = Endpoint.allCases[index % 4]
            let year = endpoint == .upcoming ? 2026 : 1995 + (index * 3) % 31
            let month = 1 + (index * 5) % 12
            let day = 1 + (index * 11) % 28
            let dateText = index % 17 == 0 ? "" : String(format: "%04d-%02d-%02d", year, month, day)
            let movie = Movie(
                id: id,
                title: title,
                overview: "In \(places[index % places.count]), \(plots[(index * 3) % plots.count]) discovers what the \(second[index % second.count].lowercased()) has been hiding.",
                releaseDate: TMDbDate.parse(dateText),
                voteAverage: (Double(30 + (index * 37) % 66)) / 10,
                voteCount: 50 + (index * 97) % 9_000,
                posterPath: index % 10 == 7 ? nil : String(format: "/p%04x.jpg", id),
                backdropPath: String(format: "/b%04x.jpg", id)
            )
            catalog.append((movie, endpoint))
            index += 1
        }
        return catalog
    }
}
