import Foundation
import GoodsCatalog
import MVVM
import Signals
import SignalsTesting
import Testing

/// Records every page request, forwarding to the offline catalog.
final class SpyGoodsService: GoodsService {
    let base: OfflineGoodsService
    let requests = Locked<[GoodsPageRequest]>([])

    init(base: OfflineGoodsService) { self.base = base }

    func categories() -> Signal<[GoodsCategory], GoodsError> { base.categories() }
    func goods(_ request: GoodsPageRequest) -> Signal<[Goods], GoodsError> {
        requests.withLock { $0.append(request) }
        return base.goods(request)
    }
    func goods(id: String) -> Signal<Goods, GoodsError> { base.goods(id: id) }
}

final class GoodsFixture: Sendable {
    let scheduler = TestScheduler()
    let offline: OfflineGoodsService
    let spy: SpyGoodsService
    let navigator = Navigator()
    let services: GoodsServices

    init() {
        offline = OfflineGoodsService(scheduler: scheduler, latency: .milliseconds(400))
        spy = SpyGoodsService(base: offline)
        services = GoodsServices(goods: spy, navigator: navigator)
    }

    /// Pending virtual-time work refers back to the scheduler; drop it with the fixture.
    deinit {
        navigator.close()
        scheduler.cancelAll()
    }

    func category(_ sortID: String) -> GoodsCategory {
        OfflineGoodsService.categories.first { $0.category.sortID == sortID }!.category
    }
}

@Suite struct GoodsCatalogTests {
    /// GD-M1: the catalog's categories make 0, 1 and several pages of 15.
    @Test func catalogCoversEveryPagingCase() {
        let counts = OfflineGoodsService.categories.map(\.count).sorted()
        #expect(counts == [0, 7, 15, 16, 44, 100])
        #expect(OfflineGoodsService.categories.count >= 6)
        let tea = OfflineGoodsService.allGoods(sortID: "1")
        #expect(tea.count == 7)
        #expect(Set(tea.map(\.goodsID)).count == 7)
        #expect(tea.allSatisfy { $0.goodsPrice > 0 })
    }

    /// GD-1: choosing a category opens the goods list for its sortID.
    @Test func choosingACategoryOpensItsList() {
        let fixture = GoodsFixture()
        let categories = CategoryListViewModel(services: fixture.services)
        fixture.navigator.push(categories)  // on screen, as the app shows it
        categories.load()
        #expect(categories.isLoading.value)
        fixture.scheduler.run()
        #expect(categories.rows.value.count == 6)
        #expect(categories.rows.value.first?.title == "茶叶 Tea")
        categories.select(index: 1)
        let list = fixture.navigator.top(GoodsListViewModel.self)
        #expect(list?.category.value.sortID == "2")
        #expect(list?.title == "商品列表")
    }

    /// GD-2: {id, page, num: 15}; first replaces, next appends, a short page ends paging.
    @Test func pagingFollowsSeed004() {
        let fixture = GoodsFixture()
        let list = GoodsListViewModel(category: fixture.category("2"), services: fixture.services)
        fixture.navigator.push(list)  // on screen, as the app shows it
        list.first()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 15)
        #expect(list.hasMore.value)
        list.next()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 30)
        list.next()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 44)
        #expect(!list.hasMore.value, "page 3 had 14 < 15 items")
        list.next()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value == [
            GoodsPageRequest(id: "2", page: 1, num: 15),
            GoodsPageRequest(id: "2", page: 2, num: 15),
            GoodsPageRequest(id: "2", page: 3, num: 15),
        ])
        list.first()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 15, "pull to refresh: page 1 replaces the rows")
        #expect(fixture.spy.requests.value.last == GoodsPageRequest(id: "2", page: 1, num: 15))
    }

    /// GD-2: exactly 15 items ask once more and find an empty page; 16 make two pages; 0 is empty.
    @Test func pageBoundaries() {
        let fixture = GoodsFixture()
        let fifteen = GoodsListViewModel(category: fixture.category("3"), services: fixture.services)
        fixture.navigator.push(fifteen)  // on screen, as the app shows it
        fifteen.first()
        fixture.scheduler.run()
        #expect(fifteen.hasMore.value)
        fifteen.next()
        fixture.scheduler.run()
        #expect(fifteen.rows.value.count == 15)
        #expect(!fifteen.hasMore.value)

        let sixteen = GoodsListViewModel(category: fixture.category("5"), services: fixture.services)
        fixture.navigator.push(sixteen)  // on screen, as the app shows it
        sixteen.first()
        fixture.scheduler.run()
        sixteen.next()
        fixture.scheduler.run()
        #expect(sixteen.rows.value.count == 16)
        #expect(!sixteen.hasMore.value)

        let empty = GoodsListViewModel(category: fixture.category("6"), services: fixture.services)
        fixture.navigator.push(empty)  // on screen, as the app shows it
        empty.first()
        fixture.scheduler.run()
        #expect(empty.rows.value.isEmpty)
        #expect(!empty.hasMore.value)
    }

    /// GD-2: a new sortID resets to page 1; no duplicate page requests while loading; each item
    /// has a cell view model with id, name and formatted price.
    @Test func newCategoryResetsAndNoDuplicateRequests() {
        let fixture = GoodsFixture()
        let list = GoodsListViewModel(category: fixture.category("4"), services: fixture.services)
        fixture.navigator.push(list)  // on screen, as the app shows it
        list.first()
        fixture.scheduler.run()
        list.next()
        list.next()
        list.next()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1, 2])
        list.show(category: fixture.category("1"))
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.last == GoodsPageRequest(id: "1", page: 1, num: 15))
        #expect(list.rows.value.count == 7)
        #expect(list.page.value == 1)
        let first = list.rows.value[0]
        #expect(first.goodsID == "1-1")
        #expect(first.name == "Longjing green tea")
        #expect(first.price.hasPrefix("¥"))
        #expect(first.price.split(separator: ".").last?.count == 2)
    }

    /// GD-2: prices are formatted the same way everywhere.
    @Test func priceFormatting() {
        #expect(PriceFormat.text(Decimal(string: "12.5")!) == "¥12.50")
        #expect(PriceFormat.text(Decimal(string: "1299")!) == "¥1,299.00")
    }

    /// GD-2: a failing page keeps the rows and shows the message; retrying works.
    @Test func failuresKeepTheRows() {
        let fixture = GoodsFixture()
        let list = GoodsListViewModel(category: fixture.category("2"), services: fixture.services)
        fixture.navigator.push(list)  // on screen, as the app shows it
        list.first()
        fixture.scheduler.run()
        fixture.offline.failRequests(with: GoodsError("The catalog is unavailable."))
        list.next()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 15)
        #expect(list.errorText.value == "The catalog is unavailable.")
        fixture.offline.failRequests(with: nil)
        list.next()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 30)
        #expect(list.errorText.value == nil)
    }

    /// GD-1, GD-3: failed category and detail loads show the message; loading again clears it.
    @Test func categoryAndDetailLoadFailuresShowTheMessageAndRetryClearsIt() {
        let fixture = GoodsFixture()
        let categories = CategoryListViewModel(services: fixture.services)
        fixture.navigator.push(categories)  // on screen, as the app shows it
        let detail = GoodsDetailViewModel(goodsID: "1-3", services: fixture.services)
        fixture.offline.failRequests(with: GoodsError("The catalog is unavailable."))
        categories.load()
        detail.load()
        fixture.scheduler.run()
        #expect(categories.errorText.value == "The catalog is unavailable.")
        #expect(detail.errorText.value == "The catalog is unavailable.")
        #expect(categories.rows.value.isEmpty && !categories.isLoading.value)
        #expect(detail.title.value == "商品详情")
        fixture.offline.failRequests(with: nil)
        categories.load()
        detail.load()
        #expect(categories.errorText.value == nil && detail.errorText.value == nil)
        fixture.scheduler.run()
        #expect(categories.rows.value.count == 6)
        #expect(detail.title.value == "Jasmine pearls")
    }

    /// GD-3: selecting an item sends its goodsID on the click signal and opens the detail.
    @Test func selectingAnItemSendsItsIDAndOpensTheDetail() {
        let fixture = GoodsFixture()
        let list = GoodsListViewModel(category: fixture.category("1"), services: fixture.services)
        fixture.navigator.push(list)  // on screen, as the app shows it
        let clicks = fixture.scheduler.record(list.clicks)
        list.first()
        fixture.scheduler.run()
        list.select(index: 2)
        #expect(clicks.recordedValues == ["1-3"])
        let detail = fixture.navigator.top(GoodsDetailViewModel.self)
        #expect(detail?.goodsID == "1-3")
        detail?.load()
        fixture.scheduler.run()
        #expect(detail?.title.value == "Jasmine pearls")
        #expect(detail?.priceText.value.hasPrefix("¥") == true)
    }

    /// GD: the whole app without a view: category → page 1 → page 2 → end → detail.
    @Test func wholeAppFlowWithoutAView() {
        let fixture = GoodsFixture()
        let categories = CategoryListViewModel(services: fixture.services)
        fixture.navigator.push(categories)
        categories.load()
        fixture.scheduler.run()
        categories.select(index: 4) // Toys, 16 items
        let list = fixture.navigator.top(GoodsListViewModel.self)!
        list.first()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 15)
        list.next()
        fixture.scheduler.run()
        #expect(list.rows.value.count == 16)
        #expect(!list.hasMore.value)
        list.select(index: 15)
        let detail = fixture.navigator.top(GoodsDetailViewModel.self)!
        detail.load()
        fixture.scheduler.run()
        #expect(detail.goodsID == "5-16")
        detail.back()
        #expect(fixture.navigator.top === list)
    }
}

/// GD-4: the same screens without bindings, on the same service.
@Suite struct DataControllerVariantTests {
    final class FakeListView: GoodsListViewProtocol, @unchecked Sendable {
        // SAFETY: used from the test's thread only (virtual time).
        var bound: [GoodsListStaticViewModel] = []
        var errors: [String] = []
        func bind(viewModel: GoodsListStaticViewModel) { bound.append(viewModel) }
        func show(error: String) { errors.append(error) }
    }

    /// GD-4: data controller → factory → view.bind; taps through the delegate; the controller glues.
    @Test func screenControllerGluesDataControllerFactoryAndView() {
        let fixture = GoodsFixture()
        let page = GoodsDataControllerPage(category: fixture.category("2"), services: fixture.services)
        fixture.navigator.push(page)  // on screen, as the app shows it
        let controller = page.controller
        let view = FakeListView()
        controller.viewDidLoad(view)
        fixture.scheduler.run()
        #expect(view.bound.last?.cellViewModelArray.count == 15)
        #expect(view.bound.last?.title == "商品列表")
        controller.didReachEnd()
        controller.didReachEnd()
        fixture.scheduler.run()
        #expect(view.bound.last?.cellViewModelArray.count == 30)
        #expect(fixture.spy.requests.value.map(\.page) == [1, 2], "the same paging rules as the bound version")
        controller.didSelectRow(goodsID: "2-5")
        #expect(fixture.navigator.top(GoodsDetailViewModel.self)?.goodsID == "2-5")
        controller.didPullToRefresh()
        fixture.scheduler.run()
        #expect(view.bound.last?.cellViewModelArray.count == 15)
    }

    /// GD-2, GD-4, GD-5 (issue 17): the DataController pages to the end and stops there: a short
    /// page ends 44 items after pages 1–3; an exact multiple (15) ends after one empty page 2
    /// with its 15 items; reaching the end again asks for nothing. Caught here, not only by the
    /// plain output: a page end that never stops keeps requesting pages.
    @Test func pagingStopsAtTheEndOfTheCategory() {
        for (sortID, count, pages) in [("2", 44, [1, 2, 3]), ("3", 15, [1, 2]), ("1", 7, [1]), ("6", 0, [1])] {
            let fixture = GoodsFixture()
            let page = GoodsDataControllerPage(category: fixture.category(sortID), services: fixture.services)
            fixture.navigator.push(page)
            let view = FakeListView()
            page.controller.viewDidLoad(view)
            fixture.scheduler.run()
            for _ in 0..<8 {
                page.controller.didReachEnd()
                fixture.scheduler.run()
            }
            #expect(fixture.spy.requests.value.map(\.page) == pages, "category \(sortID)")
            #expect(view.bound.last?.cellViewModelArray.count == count, "category \(sortID)")
            #expect(view.bound.last?.hasMore == false, "category \(sortID): the end is shown")
            #expect(!page.controller.dataController.hasMore)
        }
    }

    /// GD-4: the factory turns models into the same cell view models as the bound version.
    @Test func factoryMatchesTheBoundVersion() {
        let goods = OfflineGoodsService.allGoods(sortID: "1")
        let made = GoodsListViewModelFactory.viewModel(with: goods, hasMore: false)
        #expect(made.cellViewModelArray == goods.map(GoodsCellViewModel.init))
    }

    /// GD-4: errors reach the view through the controller.
    @Test func errorsReachTheView() {
        let fixture = GoodsFixture()
        fixture.offline.failRequests(with: GoodsError("Offline."))
        let page = GoodsDataControllerPage(category: fixture.category("2"), services: fixture.services)
        fixture.navigator.push(page)  // on screen, as the app shows it
        let controller = page.controller
        let view = FakeListView()
        controller.viewDidLoad(view)
        fixture.scheduler.run()
        #expect(view.errors == ["Offline."])
        #expect(view.bound.isEmpty)
    }
}

/// GD-5 (issue 17): one state at a time, and an exact multiple of the page size is not a
/// bogus page.
@Suite struct GoodsListDisplayTests {
    func list(_ fixture: GoodsFixture, _ sortID: String) -> GoodsListViewModel {
        let list = GoodsListViewModel(category: fixture.category(sortID), services: fixture.services)
        fixture.navigator.push(list)
        return list
    }

    /// While the first page loads the list is only loading: no "empty", no count.
    @Test func loadingThenItemsOneAtATime() {
        let fixture = GoodsFixture()
        let list = list(fixture, "2")
        let shown = fixture.scheduler.record(list.display.signal)
        list.first()
        #expect(list.display.value == .loading)
        #expect(list.emptyText.value == "Loading…")
        #expect(list.display.value.statusText == "")
        fixture.scheduler.run()
        #expect(list.display.value == .items(count: 15, loadingMore: false, hasMore: true, failure: nil))
        #expect(list.display.value.statusText == "15 items · ↓ at the end loads more")
        list.next()
        #expect(list.display.value.statusText == "15 items · loading more…")
        fixture.scheduler.run()
        #expect(!shown.recordedValues.contains(.empty), "never said empty on the way")
    }

    /// Exactly 15 items: page 2 comes back empty and the list ends "15 items · end of list".
    @Test func anExactMultipleEndsWithItsCount() {
        let fixture = GoodsFixture()
        let list = list(fixture, "3")
        list.first()
        fixture.scheduler.run()
        list.next()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1, 2])
        #expect(list.display.value.statusText == "15 items · end of list")
        #expect(!list.display.value.statusText.contains("page"))
    }

    /// An empty category is empty, a failed first page is failed: each alone.
    @Test func emptyAndFailedAreEachAlone() {
        let fixture = GoodsFixture()
        let empty = list(fixture, "6")
        empty.first()
        fixture.scheduler.run()
        #expect(empty.display.value == .empty)
        #expect(empty.emptyText.value == "No goods in this category.")
        #expect(empty.display.value.statusText == "")
        let failing = GoodsFixture()
        failing.offline.failRequests(with: GoodsError("Offline."))
        let failed = list(failing, "2")
        failed.first()
        failing.scheduler.run()
        #expect(failed.display.value == .failed("Offline."))
        #expect(failed.emptyText.value == "Offline.")
        #expect(failed.display.value.statusText == "")
    }
}
