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
public final class MovieListViewModel: Sendable {
    public let segments = Endpoint.allCases.map(\.title)
    /// MI-1: the selected segment (0 = Now Playing).
    public let selectedIndex: MutableProperty<Int>
    public let endpoint: Property<Endpoint>
    public let movies: Property<[MovieCellViewModel]>
    public let isFetching: Property<Bool>
    public let errorText: Property<String?>
    /// MI-R: whether the last request failed, so ``retry()`` has something to do.
    public let canRetry: Property<Bool>

    private let state = MutableProperty(MovieListState())
    private let retries = PublishSubject<Void, Never>()
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
        let service = services.movies
        let endpoint = self.endpoint
        subscription = endpoint.signal
            .removeDuplicates()
            .merge(with: retries.signal.map { endpoint.value })
            .flatMapLatest { endpoint in
                MovieListState.states(of: service.fetchMovies(from: endpoint)) {
                    MovieListState(movies: $0.results, isFetching: false, error: nil)
                }
            }
            .subscribe(state.observer)
    }

    deinit {
        subscription.dispose()
    }

    /// MI-R: fetches the selected list again after a failure (the user need not switch lists);
    /// does nothing otherwise.
    public func retry() {
        guard state.value.failed else { return }
        retries.send(())
    }

    /// Opens the detail of the movie at `index`.
    public func select(index: Int) {
        let list = state.value.movies
        guard list.indices.contains(index) else { return }
        services.showDetail(of: list[index], whileActive: lifecycle)
    }
}
