import Signals

/// A list loaded page by page for a key (a category, a query), as seed 004's goods list does:
/// the first page replaces the items, the next page appends, and a page shorter than the page
/// size ends paging.
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
/// - Loading a new key or refreshing cancels whatever is in flight and starts from the first
///   page; the items are replaced when it answers.
/// - `loadNextPage()` does nothing while a page is loading or when there is no more, so a list
///   that asks for more at its end never sends a duplicate request.
/// - On failure, the items and page stay as they were, `error` holds the failure and `errors`
///   emits it; the same page can be asked again.
public final class PagedList<Key: Sendable & Equatable, Item: Sendable, Failure: Error>: Sendable {
    public typealias Fetch = @Sendable (_ key: Key, _ page: Int, _ pageSize: Int) -> Signal<[Item], Failure>

    private struct State: Sendable {
        var key: Key?
        var page = 0
        var items: [Item] = []
        var hasMore = true
        var loadingPage: Int?
        var generation = 0
    }

    /// Items per page.
    public let pageSize: Int
    /// The number of the first page (1 for seed 004's API).
    public let firstPage: Int
    private let fetch: Fetch
    private let state = Locked(State())
    private let request = SerialDisposable()

    private let itemsProperty = MutableProperty<[Item]>([])
    private let loadingProperty = MutableProperty(false)
    private let hasMoreProperty = MutableProperty(false)
    private let pageProperty = MutableProperty(0)
    private let errorProperty = MutableProperty<Failure?>(nil)
    private let errorsSubject = PublishSubject<Failure, Never>()

    /// The items loaded so far, in page order.
    public var items: Property<[Item]> { itemsProperty.readOnly }
    /// Whether a page is loading.
    public var isLoading: Property<Bool> { loadingProperty.readOnly }
    /// Whether another page may exist (the last page was full).
    public var hasMore: Property<Bool> { hasMoreProperty.readOnly }
    /// The last page loaded (`firstPage - 1` before any).
    public var page: Property<Int> { pageProperty.readOnly }
    /// The failure of the last request, cleared when a request starts.
    public var error: Property<Failure?> { errorProperty.readOnly }
    /// Every failure.
    public var errors: Signal<Failure, Never> { errorsSubject.signal }

    /// Creates an empty list; `fetch` loads one page of one key.
    public init(pageSize: Int, firstPage: Int = 1, fetch: @escaping Fetch) {
        precondition(pageSize > 0, "PagedList: pageSize must be positive")
        self.pageSize = pageSize
        self.firstPage = firstPage
        self.fetch = fetch
        pageProperty.value = firstPage - 1
    }

    /// The current key.
    public var key: Key? { state.value.key }

    /// Loads the first page of `key`, replacing the items when it answers. Loading the same key
    /// again works as ``refresh()``.
    public func load(key: Key) {
        start(key: key, page: firstPage)
    }

    /// Loads the first page of the current key again (pull to refresh).
    public func refresh() {
        guard let key = state.value.key else { return }
        start(key: key, page: firstPage)
    }

    /// Loads the page after the last one, appending its items; does nothing while loading,
    /// when there is no more, or before a key was loaded.
    public func loadNextPage() {
        let next = state.withLock { state -> (Key, Int)? in
            guard let key = state.key, state.loadingPage == nil, state.hasMore, state.page >= firstPage else { return nil }
            return (key, state.page + 1)
        }
        guard let (key, page) = next else { return }
        start(key: key, page: page)
    }

    private func start(key: Key, page: Int) {
        // The key's `==` is user code: compare outside the lock, then commit only if no other
        // start came in between (otherwise compare again with the key it left).
        var keyChanged = false
        var committedGeneration = 0
        while true {
            let (current, seen) = state.withLock { ($0.key, $0.generation) }
            keyChanged = current != key
            let committed = state.withLock { state -> (Int, [Item])? in
                guard state.generation == seen else { return nil }
                var dropped: [Item] = []
                if keyChanged {
                    state.key = key
                    dropped = state.items
                    state.items = []
                    state.page = firstPage - 1
                    state.hasMore = true
                }
                state.generation += 1
                state.loadingPage = page
                return (state.generation, dropped)  // old items are released after unlocking
            }
            if let committed {
                committedGeneration = committed.0
                break
            }
        }
        let generation = committedGeneration
        if keyChanged {
            itemsProperty.value = []
            pageProperty.value = firstPage - 1
            hasMoreProperty.value = false
        }
        if !loadingProperty.value { loadingProperty.value = true }
        if case .some = errorProperty.value { errorProperty.value = nil }
        request.inner = fetch(key, page, pageSize).sink(
            value: { [weak self] items in self?.received(items, page: page, generation: generation) },
            completion: { [weak self] completion in
                switch completion {
                case .failed(let error): self?.failed(error, generation: generation)
                case .completed: self?.ended(generation: generation)
                }
            }
        )
    }

    private func received(_ items: [Item], page: Int, generation: Int) {
        let (current, _) = state.withLock { state -> (Bool, [Item]) in
            guard state.generation == generation else { return (false, []) }
            let replaced = state.items  // released after unlocking
            state.items = page == firstPage ? items : state.items + items
            // An empty page after the first is not a page: a list whose length is an exact
            // multiple of the page size ends on its last full page, not on an empty "next" one.
            if page == firstPage || !items.isEmpty { state.page = page }
            state.hasMore = items.count >= pageSize
            state.loadingPage = nil
            return (true, replaced)
        }
        if current { publish() }
    }

    private func failed(_ error: Failure, generation: Int) {
        let current = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            state.loadingPage = nil
            return true
        }
        guard current else { return }
        if loadingProperty.value { loadingProperty.value = false }
        errorProperty.value = error
        errorsSubject.send(error)
    }

    /// The request ended: after its page (nothing to do), or without one (cancelled, e.g. by
    /// `take(untilInactive:)` when the user left the screen): the list stops loading and keeps
    /// what it had, and the same page can be asked for again.
    private func ended(generation: Int) {
        let stopped = state.withLock { state -> Bool in
            guard state.generation == generation, state.loadingPage != nil else { return false }
            state.loadingPage = nil
            return true
        }
        if stopped, loadingProperty.value { loadingProperty.value = false }
    }

    private func publish() {
        let snapshot = state.value
        itemsProperty.value = snapshot.items
        pageProperty.value = snapshot.page
        hasMoreProperty.value = snapshot.hasMore && snapshot.page >= firstPage
        let loading = snapshot.loadingPage != nil
        if loadingProperty.value != loading { loadingProperty.value = loading }
    }
}
