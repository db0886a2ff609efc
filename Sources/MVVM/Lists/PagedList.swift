import Signals

/// A list loaded page by page for a key (a category, a query), as seed 004's goods list does:
/// the first page replaces the items, the next page appends, and a page shorter than the page
/// size ends paging (or, with ``init(firstPage:newKey:fetchPage:)``, a page that says it is the last:
/// TMDb's `page < total_pages`, a `next` link).
///
/// ```swift
/// let goods = PagedList<Int, Goods, ServiceError>(pageSize: 15) { sortID, page, size in
///     service.goods(category: sortID, page: page, count: size)
/// }
/// goods.load(key: sortID)      // page 1, replaces
/// goods.loadNextPage()         // page 2, appends, if there is more and nothing is loading
/// goods.refresh()              // page 1 again (pull to refresh)
/// ```
///
/// - Loading a new key starts from the first page and, by default, empties the list at once
///   (its items belong to another key: a category switch); with `newKey: .keepsItems` the items
///   stay until the first page answers (a search keeps its results while the next query runs),
///   though no next page of the old key can be asked for meanwhile. Refreshing keeps the items
///   until the first page answers, then replaces them. Each cancels whatever was in flight: its
///   answer never arrives.
/// - `loadNextPage()` does nothing while a page is loading or when there is no more, so a list
///   that asks for more at its end never sends a duplicate request.
/// - On failure, the items and page stay as they were (for a new key: empty), `error` holds the
///   failure and `errors` emits it; the same page can be asked again.
/// - A request that ends without an answer (cancelled by `take(untilInactive:)` when the user
///   left the screen, say) stops the loading and keeps what the list had.
/// - ``modifyItems(where:_:)`` changes items in place (a star count changed on a detail
///   screen), with no request.
///
/// The whole contract, a table of states with the test of each row, is in the Paging article.
///
/// **Threads.** Every method may be called from any thread. The state is one value changed
/// atomically, so `isLoading.value` is `true` exactly while a request is live, every request
/// ends in items, a failure or "not loading", and observers see the changes in the order they
/// were made: `items`, `page`, `hasMore` and `isLoading` never interleave from two answers.
/// Each property sends only when its value changed. The fetch and every observer run with no
/// lock held.
public final class PagedList<Key: Sendable & Equatable, Item: Sendable, Failure: Error>: Sendable {
    public typealias Fetch = @Sendable (_ key: Key, _ page: Int, _ pageSize: Int) -> Signal<[Item], Failure>
    /// Loads one page that says whether another follows.
    public typealias FetchPage = @Sendable (_ key: Key, _ page: Int) -> Signal<Page, Failure>

    /// One page as a service that counts its pages answers it: its items, and whether another
    /// page follows.
    public struct Page: Sendable {
        public var items: [Item]
        public var hasMore: Bool

        public init(items: [Item], hasMore: Bool) {
            self.items = items
            self.hasMore = hasMore
        }
    }

    private struct State: Sendable {
        var key: Key?
        var page: Int
        var items: [Item] = []
        var hasMore = true
        var loadingPage: Int?
        var generation = 0
        var error: Failure?
        /// Bumped when `items` changes, and when `error` does: what their streams compare (the
        /// items and the failure need not be Equatable).
        var itemsVersion = 0
        var errorVersion = 0
        /// The page a ``PagedList/load(key:through:)`` reads to: each page after the first is
        /// asked for once the one before it answers.
        var readThrough: Int?

        /// A request for `page` starts: it supersedes any other, and clears the last failure.
        /// Returns its generation.
        mutating func begin(page: Int) -> Int {
            generation += 1
            loadingPage = page
            if error != nil {
                error = nil
                errorVersion += 1
            }
            return generation
        }
    }

    /// What a paged list is doing, one thing at a time: what a screen says where its rows go and
    /// in its status line, bound instead of combined from the list's parts by each screen.
    public enum Status: Sendable {
        /// The first page is on its way, or nothing was asked for yet.
        case loadingFirstPage
        /// The first page failed: nothing to show but why (``PagedList/retry()`` asks again).
        case failedFirstPage(Failure)
        /// The list was loaded and has no items.
        case empty
        /// Items are shown. `isLoading`: a page is on its way (the next one, or a refresh);
        /// `failure`: the last page asked for failed, the items stay (``PagedList/retry()``
        /// asks again); `atEnd`: no page follows.
        case items(count: Int, isLoading: Bool, failure: Failure?, atEnd: Bool)
    }

    /// What loading a new key does to the items already shown.
    public enum NewKeyItems: Sendable {
        /// Empties the list at once: the items belong to another key (a category switch).
        case clears
        /// Keeps them until the new key's first page answers, then replaces them (a search keeps
        /// its results while the next query runs); if it fails, they stay.
        case keepsItems
    }

    /// The request in flight and the start it belongs to.
    private struct Live {
        var generation = 0
        var request: (any Disposable)?
    }

    /// Items per page; `nil` when the pages say whether more follow.
    public let pageSize: Int?
    /// The number of the first page (1 for seed 004's API).
    public let firstPage: Int
    /// What loading a new key does to the items shown.
    public let newKey: NewKeyItems
    private let fetch: FetchPage
    /// The one source of truth; its changes reach observers in the order they were made.
    private let state: MutableProperty<State>
    private let live = Locked(Live())
    private let errorsSubject = PublishSubject<Failure, Never>()

    /// The items loaded so far, in page order.
    public let items: Property<[Item]>
    /// Whether a page is loading: `true` exactly while a request is live.
    public let isLoading: Property<Bool>
    /// Whether another page may exist (the last page was full, or said so).
    public let hasMore: Property<Bool>
    /// The last page loaded (`firstPage - 1` before any).
    public let page: Property<Int>
    /// The failure of the last request, cleared when a request starts.
    public let error: Property<Failure?>
    /// Every failure.
    public var errors: Signal<Failure, Never> { errorsSubject.signal }
    /// What the list is doing, one thing at a time (``Status``).
    public let status: Property<Status>

    /// Creates an empty list; `fetch` loads one page of one key, and a page shorter than
    /// `pageSize` is the last.
    public convenience init(pageSize: Int, firstPage: Int = 1, newKey: NewKeyItems = .clears, fetch: @escaping Fetch) {
        precondition(pageSize > 0, "PagedList: pageSize must be positive")
        self.init(pageSize: pageSize, firstPage: firstPage, newKey: newKey) { key, page in
            fetch(key, page, pageSize).map { Page(items: $0, hasMore: $0.count >= pageSize) }
        }
    }

    /// Creates an empty list whose pages say whether another follows (a service that counts
    /// its pages: TMDb's `page < total_pages`); `fetchPage` loads one page of one key. An empty
    /// page after the first is the end, whatever it says.
    ///
    /// ```swift
    /// let movies = PagedList<Endpoint, Movie, MovieError> { endpoint, page in
    ///     service.movies(endpoint, page: page).map { PagedList.Page(items: $0.results, hasMore: $0.page < $0.totalPages) }
    /// }
    /// ```
    public convenience init(firstPage: Int = 1, newKey: NewKeyItems = .clears, fetchPage: @escaping FetchPage) {
        self.init(pageSize: nil, firstPage: firstPage, newKey: newKey, fetch: fetchPage)
    }

    private init(pageSize: Int?, firstPage: Int, newKey: NewKeyItems, fetch: @escaping FetchPage) {
        self.pageSize = pageSize
        self.firstPage = firstPage
        self.newKey = newKey
        self.fetch = fetch
        let state = MutableProperty(State(page: firstPage - 1))
        self.state = state
        items = Self.view(of: state, \.items, changedBy: { $0.itemsVersion == $1.itemsVersion })
        isLoading = Self.view(of: state, { $0.loadingPage != nil })
        hasMore = Self.view(of: state, { $0.hasMore && $0.page >= firstPage })
        page = Self.view(of: state, \.page)
        error = Self.view(of: state, \.error, changedBy: { $0.errorVersion == $1.errorVersion })
        status = Self.view(of: state, { Self.status(of: $0, firstPage: firstPage) }, changedBy: { a, b in
            a.items.count == b.items.count && a.loadingPage == b.loadingPage && a.errorVersion == b.errorVersion
                && a.hasMore == b.hasMore && a.page == b.page
        })
    }

    private static func status(of state: State, firstPage: Int) -> Status {
        if !state.items.isEmpty {
            let loading = state.loadingPage != nil
            return .items(count: state.items.count, isLoading: loading, failure: state.error, atEnd: !loading && !state.hasMore && state.page >= firstPage)
        }
        if state.loadingPage != nil || (state.error == nil && state.page < firstPage) { return .loadingFirstPage }
        if let error = state.error { return .failedFirstPage(error) }
        return .empty
    }

    deinit {
        live.withLock { $0.request }?.dispose()
    }

    /// A read-only view of one part of the state: exact reads, and a stream that sends only
    /// when the part changed.
    private static func view<Part: Sendable>(
        of state: MutableProperty<State>,
        _ part: @escaping @Sendable (State) -> Part,
        changedBy same: @escaping @Sendable (State, State) -> Bool
    ) -> Property<Part> {
        Property(reading: { part(state.value) }, signal: state.signal.removeDuplicates(by: same).map(part), keeping: state)
    }

    private static func view<Part: Sendable & Equatable>(
        of state: MutableProperty<State>,
        _ part: @escaping @Sendable (State) -> Part
    ) -> Property<Part> {
        Property(reading: { part(state.value) }, signal: state.signal.map(part).removeDuplicates(), keeping: state)
    }

    /// The current key.
    public var key: Key? { state.value.key }

    /// The page a ``load(key:through:)`` is still reading to; `nil` once it got there, or
    /// stopped (the end of the list, a failure, another load).
    public var readingThrough: Int? { state.value.readThrough }

    /// Loads the first page of `key`. A new key empties the list at once (or, with
    /// `newKey: .keepsItems`, when its first page answers); the same key again works as
    /// ``refresh()``.
    public func load(key: Key) {
        start(key: key, page: firstPage)
    }

    /// Loads the first page of `key`, then each page after it up to `page` (a list opened from
    /// an address that says how far it was read: `/goods/2?pages=3`): each is asked for once
    /// the one before it answers, and the reading stops at the end of the list, at a failure,
    /// or when another load starts. `page` at or below the first page loads only the first.
    public func load(key: Key, through page: Int) {
        start(key: key, page: firstPage, readThrough: page > firstPage ? page : nil)
    }

    /// Loads the first page of the current key again (pull to refresh), keeping the items until
    /// it answers.
    public func refresh() {
        guard let key = state.value.key else { return }
        start(key: key, page: firstPage)
    }

    /// Asks again for the page whose request failed: the first page when the list has none,
    /// else the next one. Does nothing unless the last request failed (and nothing is loading).
    public func retry() {
        let current = state.value
        guard current.error != nil, current.loadingPage == nil, let key = current.key else { return }
        if current.page < firstPage {
            start(key: key, page: firstPage)
        } else {
            loadNextPage()
        }
    }

    /// Loads the page after the last one, appending its items; does nothing while loading,
    /// when there is no more, or before a key was loaded.
    public func loadNextPage() {
        var next: (key: Key, page: Int, generation: Int)?
        _ = state.update { state in
            next = nil
            guard let key = state.key, state.loadingPage == nil, state.hasMore, state.page >= firstPage else { return false }
            let page = state.page + 1
            next = (key, page, state.begin(page: page))
            return true
        }
        guard let next else { return }
        request(key: next.key, page: next.page, generation: next.generation)
    }

    /// Changes, in place, every item for which `matches` is true (a star count changed on a
    /// detail screen), with no request; returns how many changed. The closures are user code:
    /// they run with no lock held (again, if another thread changed the list meanwhile).
    @discardableResult
    public func modifyItems(where matches: @Sendable (Item) -> Bool, _ change: @Sendable (inout Item) -> Void) -> Int {
        var changed = 0
        _ = state.update { state in
            changed = 0
            for index in state.items.indices where matches(state.items[index]) {
                change(&state.items[index])
                changed += 1
            }
            if changed > 0 { state.itemsVersion += 1 }
            return changed > 0
        }
        return changed
    }

    private func start(key: Key, page: Int, readThrough: Int? = nil) {
        var generation = 0
        // The key's `==` is user code: `update` runs it with no lock held (and again if another
        // thread changed the list meanwhile).
        let clears = newKey == .clears
        _ = state.update { state in
            if state.key != key {
                state.key = key
                if clears && !state.items.isEmpty {
                    state.items = []
                    state.itemsVersion += 1
                }
                state.page = firstPage - 1
                state.hasMore = true
            }
            generation = state.begin(page: page)
            state.readThrough = readThrough
            return true
        }
        request(key: key, page: page, generation: generation)
    }

    /// Cancels the request of any earlier start, then runs this one's (unless a later start
    /// came meanwhile) and keeps it as the live request.
    private func request(key: Key, page: Int, generation: Int) {
        let older = live.withLock { live -> (any Disposable)? in
            guard live.generation < generation else { return nil }
            defer { live = Live(generation: generation, request: nil) }
            return live.request
        }
        older?.dispose()
        guard state.value.generation == generation else { return }  // already superseded
        let request = fetch(key, page).sink(
            value: { [weak self] answer in self?.received(answer, page: page, generation: generation) },
            completion: { [weak self] completion in
                switch completion {
                case .failed(let error): self?.failed(error, generation: generation)
                case .completed: self?.ended(generation: generation)
                }
            }
        )
        // Kept only if no later start came while it was being made; otherwise it is the stale
        // one and goes (its answers are ignored by their generation anyway).
        let stale = live.withLock { live -> (any Disposable)? in
            guard live.generation <= generation else { return request }
            let replaced = live.request
            live = Live(generation: generation, request: request)
            return replaced
        }
        stale?.dispose()
    }

    private func received(_ answer: Page, page: Int, generation: Int) {
        let items = answer.items
        var readsOn = false
        _ = state.update { state in
            readsOn = false
            guard state.generation == generation, state.loadingPage == page else { return false }
            if page == firstPage {
                if !(items.isEmpty && state.items.isEmpty) {
                    state.items = items
                    state.itemsVersion += 1
                }
            } else if !items.isEmpty {
                state.items += items
                state.itemsVersion += 1
            }
            // An empty page after the first is not a page: a list whose length is an exact
            // multiple of the page size ends on its last full page, not on an empty "next" one.
            if page == firstPage || !items.isEmpty { state.page = page }
            state.hasMore = answer.hasMore && (page == firstPage || !items.isEmpty)
            state.loadingPage = nil
            if let last = state.readThrough {
                readsOn = state.hasMore && state.page < last
                if !readsOn { state.readThrough = nil }
            }
            return true
        }
        if readsOn { loadNextPage() }
    }

    private func failed(_ error: Failure, generation: Int) {
        let current = state.update { state in
            guard state.generation == generation, state.loadingPage != nil else { return false }
            state.loadingPage = nil
            state.readThrough = nil
            state.error = error
            state.errorVersion += 1
            return true
        }
        if current { errorsSubject.send(error) }
    }

    /// The request ended: after its page (nothing to do), or without one (cancelled, e.g. by
    /// `take(untilInactive:)` when the user left the screen): the list stops loading and keeps
    /// what it had, and the same page can be asked for again.
    private func ended(generation: Int) {
        _ = state.update { state in
            guard state.generation == generation, state.loadingPage != nil else { return false }
            state.loadingPage = nil
            state.readThrough = nil
            return true
        }
    }
}
