import MVVM
import ScreenKit

/// The goods catalog's screens, described once (GD-1, GD-2, GD-3, GD-5): the terminal, the
/// browser, plain text and the headless tester draw them. Its DataController variant (GD-4) is
/// described in ``DataControllerScreens``.
public enum GoodsScreens {
    /// Registers the app's screens.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(CategoryListViewModel.self, categories)
        registry.register(GoodsListViewModel.self, goodsList)
        registry.register(GoodsDetailViewModel.self, detail)
    }

    /// GD-1: the categories; choosing one opens its goods.
    public static func categories(_ viewModel: CategoryListViewModel) -> Screen {
        Screen(viewModel.title) {
            Text(viewModel.errorText, style: .error)
            List(
                "Categories",
                rows: viewModel.rows.live.map { $0.map { ListRow(id: $0.sortID, title: $0.title) } },
                emptyText: Live.constant("Loading categories…"),
                onSelect: { viewModel.select(index: $0) }
            )
            .linkingRows { [$0.id] }   // a category's goods are at /2, under the categories
        }
        .onAppear { viewModel.load() }
    }

    /// GD-2, GD-5: a category's goods, page by page (the end of the list loads the next),
    /// name and price on each row; one state at a time where the rows go (loading, empty, the
    /// error); the count and whether more follow below; Refresh for page 1.
    public static func goodsList(_ viewModel: GoodsListViewModel) -> Screen {
        Screen(viewModel.title) {
            Button("Refresh") { viewModel.first() }
            List(
                "Goods",
                rows: viewModel.rows.live.map { $0.map { ListRow(id: $0.goodsID, title: $0.name, trailing: $0.price) } },
                emptyText: viewModel.emptyText,
                isLoading: viewModel.isLoading,
                hasMore: viewModel.hasMore,
                onSelect: { viewModel.select(index: $0) },
                onReachEnd: { viewModel.next() }
            )
            .linkingRows { ["item", $0.id] }   // an item is at /2/item/ID, over its list
            Text(viewModel.display.live.combine(viewModel.category.live) { display, category in
                display.statusText.isEmpty ? "" : "\(category.name) · " + display.statusText
            }, style: .secondary)
            Alert(viewModel.errorText.signal.compactMap { $0 }.map { AlertMessage(title: "Could not load goods", message: $0) })
        }
        .onAppear { viewModel.first() }
    }

    /// GD-3: one product: name, price, id, summary, and Back.
    public static func detail(_ viewModel: GoodsDetailViewModel) -> Screen {
        Screen("商品详情") {
            Text(viewModel.title, style: .headline)
            Text(viewModel.priceText.live.map { $0.isEmpty ? "" : "Price: \($0)" })
            Text("ID: \(viewModel.goodsID)", style: .secondary)
            Text(viewModel.errorText, style: .error)
            Text(viewModel.summary)
            Button("Back") { viewModel.back() }
        }
        .onAppear { viewModel.load() }
    }
}
