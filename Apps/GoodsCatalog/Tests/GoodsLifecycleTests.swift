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
