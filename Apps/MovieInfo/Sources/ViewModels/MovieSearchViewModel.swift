import Foundation
import MVVM
import Signals

/// MI-2, MI-VM2: the Search tab: a search field, the list, a spinner and an info label.
///
/// The query is throttled to one request per second (the latest query of each second wins) and
/// repeated queries are dropped. An empty query shows no movies and the hint; otherwise movies
/// are cleared, the spinner runs, then the **first 5** results show, or "No result for {query}",
/// or the error text. [fix] A stale answer never overwrites a newer query's: the old request is
/// cancelled when a newer query arrives.
public final class MovieSearchViewModel: Sendable {
    public static let hint = "Start searching your favorite movies"
    /// [fix] Shorter queries (after trimming) send no request: one letter matches half of TMDb.
    public static let minimumQueryLength = 2
    public static let throttleInterval: Duration = .seconds(1)
    public static let maximumResults = 5

    public let query = MutableProperty("")
    public let movies: Property<[MovieCellViewModel]>
    public let isFetching: Property<Bool>
    /// MI-2: the info label, first "Start searching your favorite movies".
    public let infoText: Property<String?>
    /// MI-R: whether the last search failed, so ``retry()`` has something to do.
    public let canRetry: Property<Bool>

    private let retries = PublishSubject<Void, Never>()
    private let state = MutableProperty(MovieListState(movies: [], isFetching: false, error: MovieSearchViewModel.hint))
    private let subscription: any Disposable
    private let services: MovieServices

    /// The lifecycle of the screen this search is part of.
    let lifecycle: ViewModelLifecycle

    /// `lifecycle`: the lifecycle of the screen showing this search (the tabs' one); the detail
    /// opens only while that screen is visible.
    public init(services: MovieServices, lifecycle: ViewModelLifecycle = ViewModelLifecycle()) {
        self.lifecycle = lifecycle
        self.services = services
        movies = state.readOnly.map { $0.movies.map(MovieCellViewModel.init) }
        isFetching = state.readOnly.map(\.isFetching)
        infoText = state.readOnly.map(\.error)
        canRetry = state.readOnly.map(\.failed)
        let service = services.movies
        let queries = query.signal
            .throttle(for: Self.throttleInterval, on: services.scheduler)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .removeDuplicates()
            .share()
        // MI-R: a retry searches the same query again (removeDuplicates would drop it).
        subscription = queries
            .merge(with: retries.signal.withLatestFrom(queries))
            .flatMapLatest { query -> Signal<MovieListState, Never> in
                guard query.count >= Self.minimumQueryLength else {
                    return .just(MovieListState(movies: [], isFetching: false, error: Self.hint))
                }
                return MovieListState.states(of: service.searchMovie(query: query)) { response in
                    response.results.isEmpty
                        ? MovieListState(movies: [], isFetching: false, error: "No result for \(query)")
                        : MovieListState(movies: Array(response.results.prefix(Self.maximumResults)), isFetching: false, error: nil)
                }
            }
            .subscribe(state.observer)
    }

    deinit {
        subscription.dispose()
    }

    /// MI-R: runs the failed search again with the same query; does nothing otherwise.
    public func retry() {
        guard state.value.failed else { return }
        retries.send(())
    }

    /// Opens the detail of the result at `index`.
    public func select(index: Int) {
        let list = state.value.movies
        guard list.indices.contains(index) else { return }
        services.showDetail(of: list[index], whileActive: lifecycle)
    }
}

/// MI-1, MI-2: the tab bar: Movies and Search.
///
/// Lifecycle: both tabs share this screen's lifecycle, so a detail opens only while the tabs
/// are the visible screen.
public final class MoviesTabsViewModel: ViewModelLifecycleOwner {
    public let lifecycle = ViewModelLifecycle()
    public let tabs = ["Movies", "Search"]
    public let selectedTab = MutableProperty(0)
    public let list: MovieListViewModel
    public let search: MovieSearchViewModel

    /// `list`: the list shown first (Now Playing unless asked otherwise).
    public init(services: MovieServices, list first: Endpoint = .nowPlaying) {
        list = MovieListViewModel(services: services, lifecycle: lifecycle, first: first)
        search = MovieSearchViewModel(services: services, lifecycle: lifecycle)
    }
}
