import Foundation
import MVVM
import Signals

/// GD-2, GD-3: the goods of one category, 15 per page, with refresh and load-more.
///
/// `first()` (also pull-to-refresh) asks for page 1 and replaces the rows; `next()` (also
/// load-more at the end of the list) asks for the next page and appends; a page shorter than 15
/// ends paging; `show(category:)` switches to another category from page 1. Selecting a row
/// sends its goodsID on `clicks` and opens the detail screen.
///
/// Lifecycle: while the list is not the visible screen (a detail covers it, or the user left),
/// `next()` fetches nothing (a scroll event that arrives late does not load a page nobody
/// sees), and a page load in flight when the user leaves is cancelled.
public final class GoodsListViewModel: ViewModelLifecycleOwner {
    public let lifecycle = ViewModelLifecycle()
    public static let pageSize = 15

    public let title = "商品列表"
    public let category: Property<GoodsCategory>
    public let rows: Property<[GoodsCellViewModel]>
    public let isLoading: Property<Bool>
    public let hasMore: Property<Bool>
    public let page: Property<Int>
    public let errorText: Property<String?>
    /// GD-5: what the list shows, one thing at a time.
    public let display: Property<PagedListDisplay>
    /// What the list says when it has no rows: "Loading…", "No goods in this category." or the
    /// error.
    public let emptyText: Property<String>
    /// GD-3: the goodsID of each selected row.
    public let clicks: Signal<String, Never>

    private let currentCategory: MutableProperty<GoodsCategory>
    private let list: PagedList<String, Goods, GoodsError>
    private let clickSubject = PublishSubject<String, Never>()
    private let services: GoodsServices
    /// How many pages the next ``first()`` reads (an address's `pages`), then 1.
    private let restoring: Locked<Int>
    /// Whether ``first()`` was asked for while the list was covered: it loads when shown.
    private let loadsWhenActive = Locked(false)
    private let bag = DisposeBag()

    /// `pages`: how many pages the first load reads, one after another (a list opened from an
    /// address that says how far it was read: `/goods/2?pages=3`); a refresh reads page 1.
    public init(category: GoodsCategory, services: GoodsServices, pages: Int = 1) {
        self.services = services
        restoring = Locked(pages)
        currentCategory = MutableProperty(category)
        self.category = currentCategory.readOnly
        let service = services.goods
        let lifecycle = self.lifecycle
        list = PagedList(pageSize: Self.pageSize) { sortID, page, size in
            service.goods(GoodsPageRequest(id: sortID, page: page, num: size)).take(untilInactive: lifecycle)
        }
        rows = list.items.mapEach(GoodsCellViewModel.init)
        isLoading = list.isLoading
        hasMore = list.hasMore
        page = list.page
        errorText = list.error.map { $0?.message }
        let parts = list.items.map(\.count).combineLatest(list.isLoading).combineLatest(list.hasMore.combineLatest(list.page)).combineLatest(errorText)
        display = parts.map { parts in
            let (((count, isLoading), (hasMore, page)), failure) = parts
            return PagedListDisplay(count: count, isLoading: isLoading, hasMore: hasMore, page: page, failure: failure)
        }
        emptyText = display.map(\.emptyText)
        clicks = clickSubject.signal
        lifecycle.didBecomeActive.sink(value: { [weak self] _ in
            guard let self, self.loadsWhenActive.withLock({ asked in defer { asked = false }; return asked }) else { return }
            self.first()
        }).disposed(by: bag)
    }

    /// GD-2: page 1, replacing the rows (first load and pull-to-refresh); asked for while the
    /// list is covered (opened under a detail from an address), it loads once the list shows.
    public func first() {
        // Covered (a detail opened over it from an address): a load now would be cancelled at
        // once, so it waits until the list is shown.
        guard lifecycle.isActive.value else {
            loadsWhenActive.withLock { $0 = true }
            return
        }
        let pages = restoring.withLock { pages in
            defer { pages = 1 }
            return pages
        }
        list.load(key: currentCategory.value.sortID, through: pages)
    }

    /// How many pages the list shows, or will once the pages it was opened with are read: what
    /// its address says (`?pages=3`).
    public var pagesToShow: Int { max(page.value, restoring.value, list.readingThrough ?? 0) }

    /// GD-2: the next page, appended; nothing while loading or after the last page.
    public func next() {
        guard lifecycle.isActive.value else { return }
        list.loadNextPage()
    }

    /// GD-2: another category, from page 1.
    public func show(category: GoodsCategory) {
        currentCategory.value = category
        list.load(key: category.sortID)
    }

    /// GD-3: the user selected the row at `index`.
    public func select(index: Int) {
        let items = list.items.value
        guard items.indices.contains(index) else { return }
        let goods = items[index]
        clickSubject.send(goods.goodsID)
        services.navigator.push(GoodsDetailViewModel(goodsID: goods.goodsID, services: services), from: self)
    }
}
