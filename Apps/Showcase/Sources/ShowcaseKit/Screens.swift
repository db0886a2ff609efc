import FlickrSearch
import Foundation
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import PersonProfile
import ShowcaseCore
import Signals
import TerminalUI

/// The terminal screens of every app, built only from TerminalUI widgets bound to the headless
/// view models: the views hold no presentation logic.
@MainActor
public enum Screens {
    static let hint = ScreenRenderer.hint

    /// How every view-model type is shown.
    public static func registry() -> ScreenRegistry<NavigationStack.Page> {
        let registry = ScreenRegistry<NavigationStack.Page>()
        // Every app's screens, described once, drawn by TerminalUI.
        registry.register(all: ShowcaseScreens.registry(), drawing: ScreenRenderer.page(for:))
        registry.register(GoodsDataControllerCategories.self, dataControllerCategories)
        registry.register(GoodsDataControllerPage.self, dataControllerList)
        return registry
    }

    // MARK: Goods

    nonisolated static func goodsRows(_ cells: [GoodsCellViewModel]) -> [ListView.Row] {
        cells.map { ListView.Row($0.name, trailing: $0.price) }
    }

    static func dataControllerCategories(_ model: GoodsDataControllerCategories) -> NavigationStack.Page {
        let list = ListView()
        list.rows = model.categories.map { ListView.Row($0.name) }
        list.selected.sink(value: { model.select(index: $0) }).disposed(by: list.bag)
        return .init(title: model.title, view: Stack(.vertical, [list, StatusLine(hint)]))
    }

    static func dataControllerList(_ page: GoodsDataControllerPage) -> NavigationStack.Page {
        let view = DataControllerListView(controller: page.controller)
        page.controller.viewDidLoad(view)
        return .init(title: "商品列表 · " + page.category.name, view: view)
    }
}

/// GD-4: the list view of the DataController version: it shows what it is bound to and reports
/// taps through its delegate (the screen controller); no bindings.
@MainActor
final class DataControllerListView: View, GoodsListViewProtocol {
    private let list = ListView(emptyText: "Loading…")
    private let status = StatusLine()
    private weak var delegate: (any GoodsListViewDelegate)?
    private var goodsIDs: [String] = []
    private let controller: GoodsListScreenController

    init(controller: GoodsListScreenController) {
        self.controller = controller
        delegate = controller
        super.init()
        heightPolicy = .fill
        list.prefersFocus = true
        let refresh = Button("Refresh") { [weak self] in self?.delegate?.didPullToRefresh() }
        add(Stack(.vertical, [refresh, list, status]))
        list.selected.asDriver().drive { [weak self] index in
            guard let self, self.goodsIDs.indices.contains(index) else { return }
            self.delegate?.didSelectRow(goodsID: self.goodsIDs[index])
        }.disposed(by: bag)
        list.reachedEnd.asDriver().drive { [weak self] in
            self?.delegate?.didReachEnd()
        }.disposed(by: bag)
    }

    nonisolated func bind(viewModel: GoodsListStaticViewModel) {
        MainScheduler.runOnMainActor { [weak self] in
            guard let self else { return }
            self.goodsIDs = viewModel.cellViewModelArray.map(\.goodsID)
            self.list.rows = Screens.goodsRows(viewModel.cellViewModelArray)
            self.status.kind = .hint
            self.status.text = "\(viewModel.cellViewModelArray.count) items · " + (viewModel.hasMore ? "↓ at the end loads more" : "end of list")
        }
    }

    nonisolated func show(error: String) {
        MainScheduler.runOnMainActor { [weak self] in
            self?.status.kind = .error
            self?.status.text = error
        }
    }
}

extension String {
    func padded(to columns: Int) -> String {
        self + String(repeating: " ", count: max(1, columns - DisplayWidth.of(self)))
    }
}
