import MVVM
import ScreenKit
import Signals

/// GD-4, the DataController variant, described once like the bound screens. Its list has no
/// bindings to a view model: the screen controller hands a view a whole
/// ``GoodsListStaticViewModel`` (`bind(viewModel:)`) or an error, and the view reports taps and
/// the end of the list to it as its delegate. ``DataControllerListView`` is that view: it keeps
/// what it was handed for the screen to show.
public enum DataControllerScreens {
    /// Registers the variant's screens (its detail is the bound app's, ``GoodsScreens/detail(_:)``).
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(GoodsDataControllerCategories.self, categories)
        registry.register(GoodsDataControllerPage.self, list)
    }

    /// The categories; choosing one opens its list.
    public static func categories(_ viewModel: GoodsDataControllerCategories) -> Screen {
        Screen(viewModel.title) {
            List(
                "Categories",
                rows: Live.constant(viewModel.categories.map { ListRow(id: $0.sortID, title: $0.name) }),
                onSelect: { viewModel.select(index: $0) }
            )
            .linkingRows { [$0.id] }
        }
    }

    /// A category's goods as the controller last handed them, Refresh for page 1, more at the
    /// end of the list, and the count and whether more follow (GD-5's status line).
    public static func list(_ page: GoodsDataControllerPage) -> Screen {
        // The page's own view: every drawing of this screen (a view layer's, a step runner's
        // driver's) shows the one the controller renders into.
        let view = page.listView
        let controller = page.controller
        let shown = view.shown.live
        return Screen("商品列表 · " + page.category.name) {
            Button("Refresh") { controller.didPullToRefresh() }
            List(
                "Goods",
                rows: shown.map { shown in
                    (shown.bound?.cellViewModelArray ?? []).map { ListRow(id: $0.goodsID, title: $0.name, trailing: $0.price) }
                },
                // The error, if any, has its own line below.
                emptyText: shown.map { $0.error == nil ? $0.display.emptyText : "" },
                hasMore: shown.map { $0.bound?.hasMore ?? false },
                onSelect: { index in
                    guard let cells = view.shown.value.bound?.cellViewModelArray, cells.indices.contains(index) else { return }
                    controller.didSelectRow(goodsID: cells[index].goodsID)
                },
                onReachEnd: { controller.didReachEnd() }
            )
            Text(shown.map { $0.error == nil ? $0.display.statusText : "" }, style: .secondary)
            Text(shown.map(\.error), style: .error)
        }
        .onAppear { controller.viewDidLoad(view) }
    }
}

/// GD-4's list view for described screens: what the screen controller handed it last.
public final class DataControllerListView: GoodsListViewProtocol, Sendable {
    /// The static view model last bound (`nil` until the first page) and the last error.
    public struct Shown: Sendable, Equatable {
        public var bound: GoodsListStaticViewModel?
        public var error: String?

        /// The list's one state (GD-5): its items and the end, or why it failed.
        var display: PagedListDisplay {
            PagedListDisplay(count: bound?.cellViewModelArray.count ?? 0, isLoading: false, hasMore: bound?.hasMore ?? false,
                             page: bound == nil ? 0 : 1, failure: error)
        }
    }

    public let shown = MutableProperty(Shown())

    public init() {}

    public func bind(viewModel: GoodsListStaticViewModel) {
        shown.value = Shown(bound: viewModel, error: nil)
    }

    public func show(error: String) {
        shown.modify { $0.error = error }
    }
}
