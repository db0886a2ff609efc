import GoodsCatalog
import MVVM
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 25: the goods catalog driven through its screens, headless, in virtual time.
@MainActor @Suite struct GoodsScreenTests {
    /// GD-1, GD-2, GD-3, GD-5: the categories load when shown; a category opens its goods on
    /// page 1 with name and price; scrolling to the end loads page 2 and then the last; the
    /// status counts the rows and says when the list ends; a row opens its detail; Back returns
    /// to all the rows.
    @Test func aCategoryIsPagedToItsEndAndAnItemOpened() throws {
        let fixture = GoodsFixture()
        let registry = ScreenRegistry<Screen>()
        GoodsScreens.register(in: registry)
        fixture.navigator.push(CategoryListViewModel(services: fixture.services))
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        #expect(tester.title == "分类 Categories")
        #expect(tester.contains("Loading categories…"))
        tester.run()
        try tester.select("文具 Stationery")
        #expect(tester.title == "商品列表")
        #expect(tester.contains("Loading…"))
        tester.run()
        #expect(try tester.rows().count == 15)
        #expect(try tester.rows().first?.trailing.hasPrefix("¥") == true)
        #expect(tester.contains("文具 Stationery · 15 items · ↓ at the end loads more"))
        try tester.scrollToEnd()
        tester.run()
        #expect(tester.contains("30 items"))
        try tester.scrollToEnd()
        tester.run()
        #expect(tester.contains("文具 Stationery · 44 items · end of list"))
        try tester.scrollToEnd()
        tester.run()
        #expect(try tester.rows().count == 44, "no request past the end")
        let last = try #require(try tester.rows().last)
        try tester.select(row: 43)
        tester.run()
        #expect(tester.title == "商品详情")
        #expect(tester.contains(last.title))
        #expect(tester.contains("Price: \(last.trailing)"))
        try tester.press("Back")
        #expect(tester.title == "商品列表")
        #expect(try tester.rows().count == 44)
        tester.run()
        #expect(try tester.rows().count == 44, "coming back shows the list as it was: its first load does not run again")
    }

    /// GD-5: an empty category says so, and nothing else.
    @Test func anEmptyCategorySaysSo() throws {
        let fixture = GoodsFixture()
        let registry = ScreenRegistry<Screen>()
        GoodsScreens.register(in: registry)
        fixture.navigator.push(CategoryListViewModel(services: fixture.services))
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        tester.run()
        try tester.select("新品 New arrivals")
        tester.run()
        #expect(tester.contains("No goods in this category."))
        #expect(!tester.contains("0 items") && !tester.contains("end of list") && !tester.contains("Loading"))
    }

    /// GD-4: the DataController variant, described once too: its list shows what the screen
    /// controller hands its view, pages at the end, says when it ends, and opens a detail.
    @Test func theDataControllerVariantPagesToItsEndAndOpensAnItem() throws {
        let fixture = GoodsFixture()
        let registry = ScreenRegistry<Screen>()
        GoodsScreens.register(in: registry)
        DataControllerScreens.register(in: registry)
        fixture.navigator.push(GoodsDataControllerCategories(services: fixture.services))
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        #expect(tester.title == "分类 Categories (DataController)")
        try tester.select("玩具 Toys")
        #expect(tester.title == "商品列表 · 玩具 Toys")
        #expect(tester.contains("Loading…"))
        tester.run()
        #expect(try tester.rows().count == 15)
        #expect(tester.contains("15 items · ↓ at the end loads more"))
        try tester.scrollToEnd()
        tester.run()
        #expect(tester.contains("16 items · end of list"))
        try tester.scrollToEnd()
        tester.run()
        #expect(try tester.rows().count == 16, "no request past the end")
        try tester.press("Refresh")
        tester.run()
        #expect(try tester.rows().count == 15, "Refresh loads page 1 again")
        let first = try #require(try tester.rows().first)
        try tester.select(row: 0)
        tester.run()
        #expect(tester.title == "商品详情")
        #expect(tester.contains("Price: \(first.trailing)"))
        tester.back()
        #expect(tester.title == "商品列表 · 玩具 Toys")
    }
}
