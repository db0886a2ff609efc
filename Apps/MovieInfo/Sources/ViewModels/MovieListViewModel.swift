import Foundation
import MVVM
import Signals

/// What a movie list shows at one moment.
struct MovieListState: Sendable {
    var movies: [Movie] = []
    var isFetching = false
    var error: String?
    /// Whether the request failed (MI-R: it can be retried).
    var failed = false
    /// MI-P: the last page loaded (0 before any), whether TMDb has more, and whether the next
    /// page is on its way.
    var page = 0
    var hasMore = false
    var loadingMore = false

    /// The states of one request: fetching with no movies, then what `answer` makes of the
    /// response, or the error text.
    static func states(
        of request: Signal<MoviesResponse, MovieError>,
        _ answer: @escaping @Sendable (MoviesResponse) -> MovieListState
    ) -> Signal<MovieListState, Never> {
        request
            .map(answer)
            .catch { error in Signal.just(MovieListState(movies: [], isFetching: false, error: error.description, failed: true)) }
            .prepend(MovieListState(movies: [], isFetching: true, error: nil))
    }
}

extension MovieServices {
    /// Opens the detail screen of `movie` if the screen asking (`lifecycle`) is the visible one.
    func showDetail(of movie: Movie, whileActive lifecycle: ViewModelLifecycle) {
        navigator.push(MovieDetailViewModel(movieID: movie.id, title: movie.title, services: self), whileActive: lifecycle)
    }
}

/// MI-1, MI-VM1: the Movies tab: a segmented control of the four lists, the list, a spinner and
/// an info label for errors.
///
/// On each endpoint: movies = [], isFetching = true, error = nil, then fetch; success →
/// isFetching false and the movies; failure → isFetching false and the error text. The first
/// endpoint is Now Playing. Switching again before an answer cancels the old request.
///
/// MI-P: ``next()`` (the end of the list) loads the next page (`page=`) and appends it while
/// TMDb has more (`page < total_pages`); `footerText` is "Loading more…", the end marker, or
/// `nil`. A failed page keeps the movies and says why; ``retry()`` asks for it again.
public final class MovieListViewModel: Sendable {
    public static let endText = "— end of list —"
    public static let loadingMoreText = "Loading more…"

    public let segments = Endpoint.allCases.map(\.title)
    /// MI-1: the selected segment (0 = Now Playing).
    public let selectedIndex: MutableProperty<Int>
    public let endpoint: Property<Endpoint>
    public let movies: Property<[MovieCellViewModel]>
    public let isFetching: Property<Bool>
    public let errorText: Property<String?>
    /// MI-R: whether the last request failed, so ``retry()`` has something to do.
    public let canRetry: Property<Bool>
    /// MI-P: the row under the movies.
    public let footerText: Property<String?>
    /// MI-P: whether the list has pages left to load (a view asks with ``next()`` when its end
    /// comes into view).
    public let hasMore: Property<Bool>

    private let state = MutableProperty(MovieListState())
    private let retries = PublishSubject<Void, Never>()
    /// MI-P: the next page's request, cancelled by a new endpoint.
    private let moreRequest = SerialDisposable()
    private let generation = Locked(0)
    private let subscription: any Disposable
    private let services: MovieServices
    /// The lifecycle of the screen this list is part of.
    let lifecycle: ViewModelLifecycle

    /// `lifecycle`: the lifecycle of the screen showing this list (the tabs' one); the detail
    /// opens only while that screen is visible. `first`: the list fetched first (Now Playing
    /// unless the user asked for another: then only that one is requested).
    public init(services: MovieServices, lifecycle: ViewModelLifecycle = ViewModelLifecycle(), first: Endpoint = .nowPlaying) {
        selectedIndex = MutableProperty(Endpoint.allCases.firstIndex(of: first) ?? 0)
        self.services = services
        self.lifecycle = lifecycle
        endpoint = selectedIndex.readOnly.map { Endpoint(index: $0) ?? .nowPlaying }
        movies = state.readOnly.map { $0.movies.map(MovieCellViewModel.init) }
        isFetching = state.readOnly.map(\.isFetching)
        errorText = state.readOnly.map(\.error)
        canRetry = state.readOnly.map(\.failed)
        hasMore = state.readOnly.map { $0.page >= 1 && $0.hasMore && !$0.isFetching && !$0.failed }
        footerText = state.readOnly.map { state in
            if state.loadingMore { return Self.loadingMoreText }
            if state.isFetching || state.failed || state.page == 0 || state.movies.isEmpty { return nil }
            return state.hasMore ? nil : Self.endText
        }
        let service = services.movies
        let endpoint = self.endpoint
        let moreRequest = self.moreRequest
        let generation = self.generation
        subscription = endpoint.signal
            .removeDuplicates()
            .merge(with: retries.signal.map { endpoint.value })
            .flatMapLatest { endpoint in
                // A new list (or a retry of page 1): the next page of the old one is dropped.
                generation.withLock { $0 += 1 }
                moreRequest.inner = nil
                return MovieListState.states(of: service.fetchMovies(from: endpoint)) {
                    MovieListState(movies: $0.results, isFetching: false, error: nil, page: 1, hasMore: $0.page < $0.totalPages)
                }
            }
            .subscribe(state.observer)
    }

    /// MI-P: the next page of the selected list, appended; nothing while loading, after the
    /// last page, or before the first arrived.
    public func next() {
        let current = state.value
        guard current.page >= 1, current.hasMore, !current.isFetching, !current.loadingMore else { return }
        let page = current.page + 1
        let endpoint = self.endpoint.value
        let started = generation.withLock { $0 }
        let generation = self.generation
        let state = self.state
        state.modify { $0.loadingMore = true; $0.error = nil; $0.failed = false }
        moreRequest.inner = services.movies.fetchMovies(from: endpoint, page: page).sink(
            value: { response in
                guard generation.withLock({ $0 }) == started else { return }
                state.modify { state in
                    state.movies += response.results
                    if !response.results.isEmpty { state.page = page }
                    state.hasMore = !response.results.isEmpty && response.page < response.totalPages
                    state.loadingMore = false
                }
            },
            completion: { completion in
                guard generation.withLock({ $0 }) == started else { return }
                if case .failed(let error) = completion {
                    state.modify { $0.loadingMore = false; $0.error = error.description; $0.failed = true }
                } else {
                    state.modify { $0.loadingMore = false }
                }
            }
        )
    }

    deinit {
        subscription.dispose()
        moreRequest.dispose()
    }

    /// MI-R: fetches the selected list again after a failure (the user need not switch lists);
    /// does nothing otherwise.
    public func retry() {
        let current = state.value
        guard current.failed else { return }
        if current.page >= 1 && !current.movies.isEmpty {
            next()  // the next page failed: ask for it again, keeping the movies
        } else {
            retries.send(())
        }
    }

    /// Opens the detail of the movie at `index`.
    public func select(index: Int) {
        let list = state.value.movies
        guard list.indices.contains(index) else { return }
        services.showDetail(of: list[index], whileActive: lifecycle)
    }
}
