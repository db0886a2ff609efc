import GoodsCatalog
import MVVM
import Signals
import SignalsTesting
import Testing

/// Issue 18: the view-model lifecycle at work in the goods catalog (both variants).
@Suite struct GoodsLifecycleTests {
    /// A covered list loads no page (a late "reached the end" from a screen nobody sees) and
    /// opens no detail; back on screen it does both.
    @Test func aCoveredListNeitherFetchesNorNavigates() {
        let fixture = GoodsFixture()
        let list = GoodsListViewModel(category: fixture.category("2"), services: fixture.services)
        fixture.navigator.push(list)
        list.first()
        fixture.scheduler.run()
        list.select(index: 0)
        let detail = fixture.navigator.top(GoodsDetailViewModel.self)
        #expect(detail?.goodsID == "2-1")
        #expect(!list.lifecycle.isActive.value)
        list.next()
        list.select(index: 1)
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1], "no page for a covered list")
        #expect(fixture.navigator.stack.count == 2, "no detail opened from a covered list")
        fixture.navigator.pop()
        list.next()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1, 2])
        list.select(index: 1)
        #expect(fixture.navigator.top(GoodsDetailViewModel.self)?.goodsID == "2-2")
    }

    /// Issue 43: a list opened under a detail from an address (`/goods/2/item/2-7?pages=2`) and
    /// asked for its first page while covered (a renderer that builds every page on the stack)
    /// loads nothing it would have to cancel; back on screen it reads the pages its address
    /// named, and its address says them all along.
    @Test func aListOpenedCoveredFromAnAddressReadsItsPagesWhenShown() {
        let fixture = GoodsFixture()
        let list = GoodsListViewModel(category: fixture.category("2"), services: fixture.services, pages: 2)
        fixture.navigator.push(all: [list, GoodsDetailViewModel(goodsID: "2-7", services: fixture.services)])
        list.first()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.isEmpty, "no page for a covered list")
        #expect(list.pagesToShow == 2)
        fixture.navigator.pop()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1, 2])
        #expect(list.rows.value.count == 30 && list.pagesToShow == 2)
        list.first()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1, 2, 1], "a refresh reads the first page only")
    }

    /// Leaving a list while its page loads cancels the load: nothing arrives afterwards.
    @Test func leavingAListCancelsItsLoad() {
        let fixture = GoodsFixture()
        let categories = CategoryListViewModel(services: fixture.services)
        fixture.navigator.push(categories)
        categories.load()
        fixture.scheduler.run()
        categories.select(index: 1)
        let list = fixture.navigator.top(GoodsListViewModel.self)!
        list.first()
        #expect(list.isLoading.value)
        fixture.navigator.pop()
        fixture.scheduler.run()
        #expect(list.rows.value.isEmpty && !list.isLoading.value)
    }

    /// GD-4: the DataController variant follows its page's lifecycle in the same way.
    @Test func theDataControllerVariantFollowsItsPage() {
        let fixture = GoodsFixture()
        let page = GoodsDataControllerPage(category: fixture.category("2"), services: fixture.services)
        fixture.navigator.push(page)
        final class View: GoodsListViewProtocol, @unchecked Sendable {
            // SAFETY: used from the test's thread only (virtual time).
            var bound: [GoodsListStaticViewModel] = []
            func bind(viewModel: GoodsListStaticViewModel) { bound.append(viewModel) }
            func show(error: String) {}
        }
        let view = View()
        page.controller.viewDidLoad(view)
        fixture.scheduler.run()
        page.controller.didSelectRow(goodsID: "2-1")
        #expect(fixture.navigator.top(GoodsDetailViewModel.self)?.goodsID == "2-1")
        page.controller.didReachEnd()
        page.controller.didSelectRow(goodsID: "2-2")
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value.map(\.page) == [1], "no page for a covered list")
        #expect(fixture.navigator.top(GoodsDetailViewModel.self)?.goodsID == "2-1", "no detail from a covered list")
    }
}
