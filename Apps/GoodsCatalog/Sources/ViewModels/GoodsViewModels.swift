import Foundation
import MVVM
import Signals

/// What the goods screens need: the service and navigation.
public struct GoodsServices: Sendable {
    public let goods: any GoodsService
    public let navigator: any NavigationService

    public init(goods: any GoodsService, navigator: any NavigationService) {
        self.goods = goods
        self.navigator = navigator
    }
}

/// One row of the category list.
public struct CategoryCellViewModel: Sendable, Equatable {
    public let sortID: String
    public let title: String

    public init(_ category: GoodsCategory) {
        sortID = category.sortID
        title = category.name
    }
}

/// GD-1: the categories (seed 004's SortList); choosing one opens its goods list.
public final class CategoryListViewModel: Sendable {
    public let title = "分类 Categories"
    public let rows: Property<[CategoryCellViewModel]>
    public let isLoading: Property<Bool>
    public let errorText: Property<String?>
    private let fetch: Action<Void, [GoodsCategory], GoodsError>
    private let categories: Property<[GoodsCategory]>
    private let services: GoodsServices

    public init(services: GoodsServices) {
        self.services = services
        fetch = Action { [goods = services.goods] in goods.categories() }
        categories = fetch.latestValue.map { $0 ?? [] }
        rows = categories.mapEach(CategoryCellViewModel.init)
        isLoading = fetch.isExecuting
        errorText = fetch.latestFailure.map { $0?.message }
    }

    /// Loads the categories (again); does nothing while a load is running.
    public func load() {
        fetch.execute()
    }

    /// GD-1: opens the goods list of the category at `index`.
    public func select(index: Int) {
        let list = categories.value
        guard list.indices.contains(index) else { return }
        services.navigator.push(GoodsListViewModel(category: list[index], services: services), from: self)
    }
}

/// One row of the goods list: id, name, formatted price.
public struct GoodsCellViewModel: Sendable, Equatable {
    public let goodsID: String
    public let name: String
    public let price: String

    public init(_ goods: Goods) {
        goodsID = goods.goodsID
        name = goods.goodsName
        price = PriceFormat.text(goods.goodsPrice)
    }
}

/// GD-5: what a paged list shows, one thing at a time: loading its first page, empty, failed,
/// or its items (with the next page loading, more to come, or the end).
public enum PagedListDisplay: Sendable, Equatable {
    case loading
    case empty
    case failed(String)
    /// `loadingMore`: the next page is on its way; `failure`: the next page failed (the rows
    /// stay).
    case items(count: Int, loadingMore: Bool, hasMore: Bool, failure: String?)

    /// One state from the list's parts: rows win; without rows, loading, then a failure, then
    /// nothing loaded yet (loading), then empty.
    public init(count: Int, isLoading: Bool, hasMore: Bool, page: Int, failure: String?) {
        if count > 0 {
            self = .items(count: count, loadingMore: isLoading, hasMore: hasMore, failure: failure)
        } else if isLoading {
            self = .loading
        } else if let failure {
            self = .failed(failure)
        } else if page == 0 {
            self = .loading
        } else {
            self = .empty
        }
    }

    /// The status line under the rows: "44 items · end of list" (never a page number: an
    /// exact multiple of the page size ends with its own count, not a bogus empty page);
    /// empty unless there are rows.
    public var statusText: String {
        guard case .items(let count, let loadingMore, let hasMore, let failure) = self else { return "" }
        let items = "\(CountText.items(count)) · "
        if loadingMore { return items + "loading more…" }
        if let failure { return items + failure }
        return items + (hasMore ? "↓ at the end loads more" : "end of list")
    }
}

/// "1 item", "15 items".
public enum CountText {
    public static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }
}

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

    public init(category: GoodsCategory, services: GoodsServices) {
        self.services = services
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
        emptyText = display.map { display in
            switch display {
            case .loading: return "Loading…"
            case .failed(let message): return message
            case .empty, .items: return "No goods in this category."
            }
        }
        clicks = clickSubject.signal
    }

    /// GD-2: page 1, replacing the rows (first load and pull-to-refresh).
    public func first() {
        list.load(key: currentCategory.value.sortID)
    }

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

/// GD-3: one product's detail, loaded by id.
public final class GoodsDetailViewModel: Sendable {
    public let goodsID: String
    public let title: Property<String>
    public let priceText: Property<String>
    public let summary: Property<String>
    public let isLoading: Property<Bool>
    public let errorText: Property<String?>
    private let fetch: Action<Void, Goods, GoodsError>
    private let services: GoodsServices

    public init(goodsID: String, services: GoodsServices) {
        self.goodsID = goodsID
        self.services = services
        fetch = Action { [goods = services.goods] in goods.goods(id: goodsID) }
        let goods = fetch.latestValue
        title = goods.map { $0?.goodsName ?? "商品详情" }
        priceText = goods.map { $0.map { PriceFormat.text($0.goodsPrice) } ?? "" }
        summary = goods.map { $0?.summary ?? "" }
        isLoading = fetch.isExecuting
        errorText = fetch.latestFailure.map { $0?.message }
    }

    /// Loads the product (again); does nothing while a load is running.
    public func load() {
        fetch.execute()
    }

    /// Back to the list.
    public func back() {
        services.navigator.pop()
    }
}
