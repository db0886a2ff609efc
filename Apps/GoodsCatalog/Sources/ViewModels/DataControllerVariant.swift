import Foundation
import MVVM
import Signals

// GD-4: the same goods list "without bindings": a DataController requests and holds the models
// and calls back; a factory turns models into view models; the view exposes `bind(viewModel:)`
// and reports taps through a delegate; the screen controller is the glue (seed 004's second
// half). It runs on the same GoodsService as the bound version.

/// Requests goods pages and holds the models (seed 004's `GoodsListDataController`).
public final class GoodsListDataController: Sendable {
    public let sortID: String
    private let service: any GoodsService
    private let state = Locked<(models: [Goods], page: Int, hasMore: Bool, loading: Bool)>(([], 0, true, false))
    private let request = SerialDisposable()

    public init(sortID: String, service: any GoodsService) {
        self.sortID = sortID
        self.service = service
    }

    /// The models loaded so far (seed 004's `goodsListModelArray`).
    public var goodsListModelArray: [Goods] { state.value.models }
    /// Whether another page may exist.
    public var hasMore: Bool { state.value.hasMore }
    /// The last page loaded (0 before any).
    public var page: Int { state.value.page }

    /// Requests page 1 and replaces the models; calls `success` or `fail` when it answers.
    public func requestFirstPage(success: @escaping @Sendable () -> Void, fail: @escaping @Sendable (GoodsError) -> Void) {
        request(page: 1, success: success, fail: fail)
    }

    /// Requests the next page and appends it; does nothing while loading or after the last page.
    public func requestNextPage(success: @escaping @Sendable () -> Void, fail: @escaping @Sendable (GoodsError) -> Void) {
        let page = state.withLock { state -> Int? in
            guard !state.loading, state.hasMore, state.page > 0 else { return nil }
            return state.page + 1
        }
        guard let page else { return }
        request(page: page, success: success, fail: fail)
    }

    private func request(page: Int, success: @escaping @Sendable () -> Void, fail: @escaping @Sendable (GoodsError) -> Void) {
        state.withLock { $0.loading = true }
        let state = self.state
        let pageSize = GoodsListViewModel.pageSize
        request.inner = service.goods(GoodsPageRequest(id: sortID, page: page, num: pageSize)).sink(
            value: { goods in
                state.withLock { state in
                    state.models = page == 1 ? goods : state.models + goods
                    state.page = page
                    state.hasMore = goods.count >= pageSize
                    state.loading = false
                }
                success()
            },
            completion: { completion in
                if case .failed(let error) = completion {
                    state.withLock { $0.loading = false }
                    fail(error)
                }
            }
        )
    }
}

/// What the list view shows, built once per render (no bindings).
public struct GoodsListStaticViewModel: Sendable, Equatable {
    public let title: String
    public let cellViewModelArray: [GoodsCellViewModel]
    public let hasMore: Bool
}

/// Turns models into view models (seed 004's `viewModelWithGoodsModel:` factory).
public enum GoodsListViewModelFactory {
    public static func viewModel(with goods: [Goods], hasMore: Bool) -> GoodsListStaticViewModel {
        GoodsListStaticViewModel(title: "商品列表", cellViewModelArray: goods.map(GoodsCellViewModel.init), hasMore: hasMore)
    }
}

/// The events the list view reports (seed 004's `GoodsListViewDelegate`).
public protocol GoodsListViewDelegate: AnyObject, Sendable {
    func didSelectRow(goodsID: String)
    func didReachEnd()
    func didPullToRefresh()
}

/// The list view, as the screen controller sees it.
public protocol GoodsListViewProtocol: AnyObject, Sendable {
    func bind(viewModel: GoodsListStaticViewModel)
    func show(error: String)
}

/// The glue: owns the data controller, renders into the view, handles its delegate events.
public final class GoodsListScreenController: GoodsListViewDelegate {
    public let dataController: GoodsListDataController
    private let services: GoodsServices
    /// The view, held weakly: the view holds this controller (its delegate's owner), so a
    /// strong reference back would keep both alive for good.
    private let view: Locked<WeakView>
    private let lifecycle: ViewModelLifecycle
    /// How many pages the first load reads (an address's `pages`), then 1.
    private let restoring: Locked<Int>
    /// The page the first load is still reading to, if any.
    private let readingTo = Locked<Int?>(nil)

    /// `lifecycle`: the lifecycle of the screen showing this list; a detail opens only while it
    /// is active, and reaching the end of a list that is not on screen loads nothing. `pages`:
    /// how many pages the first load reads, one after another (an address's `pages`).
    public init(sortID: String, services: GoodsServices, lifecycle: ViewModelLifecycle = ViewModelLifecycle(), pages: Int = 1) {
        self.services = services
        self.lifecycle = lifecycle
        restoring = Locked(pages)
        dataController = GoodsListDataController(sortID: sortID, service: services.goods)
        view = Locked(WeakView())
    }

    /// Attaches the view (held weakly by the caller's screen) and loads page 1.
    public func viewDidLoad(_ view: any GoodsListViewProtocol) {
        self.view.withLock { $0 = WeakView(view: view) }
        fetchFirstPage()
    }

    private func fetchFirstPage() {
        let pages = restoring.withLock { pages in
            defer { pages = 1 }
            return pages
        }
        readingTo.withLock { $0 = pages > 1 ? pages : nil }
        dataController.requestFirstPage(success: { [weak self] in self?.render(readingOnTo: pages) }, fail: { [weak self] in self?.stopReading(showing: $0) })
    }

    /// How many pages the list shows, or will once the pages it was opened with are read: what
    /// its address says (`?pages=3`).
    public var pagesToShow: Int { max(dataController.page, restoring.value, readingTo.value ?? 0) }

    /// Renders, then asks for the next page while the list has fewer than `pages` pages.
    private func render(readingOnTo pages: Int) {
        render()
        guard dataController.page < pages, dataController.hasMore else {
            readingTo.withLock { $0 = nil }
            return
        }
        dataController.requestNextPage(success: { [weak self] in self?.render(readingOnTo: pages) }, fail: { [weak self] in self?.stopReading(showing: $0) })
    }

    private func stopReading(showing error: GoodsError) {
        readingTo.withLock { $0 = nil }
        show(error)
    }

    private func render() {
        let viewModel = GoodsListViewModelFactory.viewModel(with: dataController.goodsListModelArray, hasMore: dataController.hasMore)
        view.value.view?.bind(viewModel: viewModel)
    }

    private func show(_ error: GoodsError) {
        view.value.view?.show(error: error.message)
    }

    public func didSelectRow(goodsID: String) {
        services.navigator.push(GoodsDetailViewModel(goodsID: goodsID, services: services), whileActive: lifecycle)
    }

    public func didReachEnd() {
        guard lifecycle.isActive.value else { return }
        dataController.requestNextPage(success: { [weak self] in self?.render() }, fail: { [weak self] in self?.show($0) })
    }

    public func didPullToRefresh() {
        fetchFirstPage()
    }
}

/// GD-4: the DataController version of a category's goods list, as a navigation entry: the
/// screen shows `controller`'s view. Its lifecycle is the controller's: a detail opens only
/// while this page is the visible screen.
public final class GoodsDataControllerPage: ViewModelLifecycleOwner {
    public let lifecycle = ViewModelLifecycle()
    public let category: GoodsCategory
    public let controller: GoodsListScreenController
    /// The list's view (held here: the controller holds it weakly, as seed 004's does).
    public let listView = DataControllerListView()

    /// `pages`: how many pages the list reads first (an address's `pages`).
    public init(category: GoodsCategory, services: GoodsServices, pages: Int = 1) {
        self.category = category
        controller = GoodsListScreenController(sortID: category.sortID, services: services, lifecycle: lifecycle, pages: pages)
    }
}

/// GD-4: the categories for the DataController version.
public final class GoodsDataControllerCategories: Sendable {
    public let title = "分类 Categories (DataController)"
    public let categories = OfflineGoodsService.categories.map(\.category)
    public let services: GoodsServices

    public init(services: GoodsServices) {
        self.services = services
    }

    public func select(index: Int) {
        guard categories.indices.contains(index) else { return }
        services.navigator.push(GoodsDataControllerPage(category: categories[index], services: services), from: self)
    }
}

/// A weak reference to a list view, for the screen controller.
struct WeakView: Sendable {
    weak var view: (any GoodsListViewProtocol)?
}
