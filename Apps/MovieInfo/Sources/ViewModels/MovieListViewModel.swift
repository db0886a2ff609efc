import Foundation
import MVVM
import Signals

/// What the movie search shows at one moment.
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
///
/// MI-P: ``next()`` (the end of the list) loads the next page (`page=`) and appends it while
/// TMDb has more (`page < total_pages`); ``isLoadingMore`` says one is on its way, and once none
/// is left the screen's list ends with ``endText``. A failed page keeps the movies and says why
/// (``moreFailureText``); ``retry()`` asks for it again. The paging is a `PagedList` whose pages
/// say whether more follow.
public final class MovieListViewModel: Sendable {
    public static let endText = "— end of list —"

    public let segments = Endpoint.allCases.map(\.title)
    /// MI-1: the selected segment (0 = Now Playing).
    public let selectedIndex: MutableProperty<Int>
    public let endpoint: Property<Endpoint>
    public let movies: Property<[MovieCellViewModel]>
    public let isFetching: Property<Bool>
    public let errorText: Property<String?>
    /// MI-R: whether the last request failed, so ``retry()`` has something to do.
    public let canRetry: Property<Bool>
    /// MI-P: a page after the first is on its way (the list shows a loading row).
    public let isLoadingMore: Property<Bool>
    /// MI-P: why a page after the first failed (the list says it under the movies, with a way
    /// to ``retry()``); `nil` otherwise. A first page that failed is ``errorText`` alone.
    public let moreFailureText: Property<String?>
    /// MI-P: whether the list has pages left to load (a view asks with ``next()`` when its end
    /// comes into view).
    public let hasMore: Property<Bool>

    /// The list's paging: one state, changed atomically (a new endpoint drops the old one's
    /// pages and cancels its request).
    private let list: PagedList<Endpoint, Movie, MovieError>
    private let subscription: any Disposable
    private let services: MovieServices
    /// The lifecycle of the screen this list is part of.
    let lifecycle: ViewModelLifecycle

    /// What the list's parts say together.
    private struct Status: Sendable, Equatable {
        var loading: Bool
        var page: Int
        var failed: Bool
        var hasMore: Bool
    }

    /// `lifecycle`: the lifecycle of the screen showing this list (the tabs' one); the detail
    /// opens only while that screen is visible. `first`: the list fetched first (Now Playing
    /// unless the user asked for another: then only that one is requested).
    public init(services: MovieServices, lifecycle: ViewModelLifecycle = ViewModelLifecycle(), first: Endpoint = .nowPlaying) {
        selectedIndex = MutableProperty(Endpoint.allCases.firstIndex(of: first) ?? 0)
        self.services = services
        self.lifecycle = lifecycle
        endpoint = selectedIndex.readOnly.map { Endpoint(index: $0) ?? .nowPlaying }
        let service = services.movies
        let list = PagedList<Endpoint, Movie, MovieError> { endpoint, page in
            (page == 1 ? service.fetchMovies(from: endpoint) : service.fetchMovies(from: endpoint, page: page))
                .map { PagedList.Page(items: $0.results, hasMore: $0.page < $0.totalPages) }
        }
        self.list = list
        movies = list.items.mapEach(MovieCellViewModel.init)
        errorText = list.error.map { $0?.description }
        canRetry = list.error.map { $0 != nil }
        let status = Property.combineLatest(list.isLoading, list.page, canRetry, list.hasMore)
            .map { Status(loading: $0, page: $1, failed: $2, hasMore: $3) }
        isFetching = status.map { $0.loading && $0.page < 1 }.removeDuplicates()
        hasMore = status.map { $0.hasMore && !$0.loading && !$0.failed }.removeDuplicates()
        isLoadingMore = status.map { $0.loading && $0.page >= 1 }.removeDuplicates()
        moreFailureText = Property.combineLatest(errorText, list.page).map { error, page in page >= 1 ? error : nil }.removeDuplicates()
        // Each endpoint chosen loads its first page (a new one drops the old one's movies).
        subscription = endpoint.signal.removeDuplicates().sink { list.load(key: $0) }
    }

    /// MI-P: the next page of the selected list, appended; nothing while loading, after the
    /// last page, or before the first arrived.
    public func next() {
        list.loadNextPage()
    }

    deinit {
        subscription.dispose()
    }

    /// MI-R: fetches the selected list again after a failure (the user need not switch lists);
    /// does nothing otherwise.
    public func retry() {
        guard list.error.value != nil else { return }
        if list.page.value >= 1 {
            list.loadNextPage()  // the next page failed: ask for it again, keeping the movies
        } else {
            list.refresh()
        }
    }

    /// Opens the detail of the movie at `index`.
    public func select(index: Int) {
        let movies = list.items.value
        guard movies.indices.contains(index) else { return }
        services.showDetail(of: movies[index], whileActive: lifecycle)
    }
}
