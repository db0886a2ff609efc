import FlickrSearch
import Foundation
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import PersonProfile
import ShowcaseCore
import Signals
import WebUI

/// The browser pages of every app: WebUI elements bound to the same headless view models the
/// terminal screens drive; the pages hold no presentation logic.
@MainActor
public final class WebPages {
    /// Where images come from for the app opened last (live URLs or offline placeholders).
    public var images = ImageSource(isLive: false)

    public init() {}

    /// How every view-model type is shown.
    public func registry() -> ScreenRegistry<NavigationStack.Page> {
        let registry = ScreenRegistry<NavigationStack.Page>()
        // Described screens' images: the live URL, or an offline placeholder of the app's size.
        let imageSource: ScreenRenderer.ImageSource = { [unowned self] request in
            let (width, height) = request.shape == .poster ? (request.isThumbnail ? (120, 180) : (185, 278)) : (request.isThumbnail ? (150, 150) : (640, 480))
            return self.images.source(request.url.flatMap { URL(string: $0) }, label: request.alt, key: request.key, width: width, height: height)
        }
        // Every app's screens, described once, drawn by WebUI.
        registry.register(all: ShowcaseScreens.registry(), drawing: { ScreenRenderer.page(for: $0, images: imageSource) })
        registry.register(GoodsDataControllerCategories.self) { [unowned self] in self.dataControllerCategories($0) }
        registry.register(GoodsDataControllerPage.self) { [unowned self] in self.dataControllerList($0) }
        return registry
    }

    // MARK: Goods

    nonisolated static func goodsRows(_ cells: [GoodsCellViewModel]) -> [ListView.Row] {
        cells.map { ListView.Row(key: $0.goodsID, title: $0.name, detail: $0.price) }
    }

    func dataControllerCategories(_ model: GoodsDataControllerCategories) -> NavigationStack.Page {
        let list = ListView()
        list.rows = model.categories.map { ListView.Row(key: $0.sortID, title: $0.name) }
        list.selected.sink(value: { model.select(index: $0) }).disposed(by: list.bag)
        return .init(title: model.title, content: list)
    }

    func dataControllerList(_ page: GoodsDataControllerPage) -> NavigationStack.Page {
        let view = DataControllerListElement(controller: page.controller)
        page.controller.viewDidLoad(view)
        return .init(title: "商品列表 · " + page.category.name, content: view)
    }
}

/// GD-4: the list of the DataController version: it shows what it is given and reports clicks
/// through its delegate (the screen controller); no bindings.
@MainActor
final class DataControllerListElement: Element, GoodsListViewProtocol {
    private let list = ListView(emptyText: "Loading…")
    private let status = Label("", tag: "p", class: "dim footer")
    private weak var delegate: (any GoodsListViewDelegate)?
    private var goodsIDs: [String] = []
    private let controller: GoodsListScreenController

    init(controller: GoodsListScreenController) {
        self.controller = controller
        delegate = controller
        super.init("div", ["class": "col"])
        let refresh = Button("Refresh") { [weak self] in self?.delegate?.didPullToRefresh() }
        setChildren([refresh, list, status])
        list.selected.asDriver().drive { [weak self] index in
            guard let self, self.goodsIDs.indices.contains(index) else { return }
            self.delegate?.didSelectRow(goodsID: self.goodsIDs[index])
        }.disposed(by: bag)
        list.reachedEnd.asDriver().drive { [weak self] in self?.delegate?.didReachEnd() }.disposed(by: bag)
    }

    nonisolated func bind(viewModel: GoodsListStaticViewModel) {
        MainScheduler.runOnMainActor { [weak self] in
            guard let self else { return }
            self.goodsIDs = viewModel.cellViewModelArray.map(\.goodsID)
            self.list.rows = WebPages.goodsRows(viewModel.cellViewModelArray)
            self.list.loadsMore = viewModel.hasMore
            self.status.setAttribute("class", "dim footer")
            self.status.text = "\(viewModel.cellViewModelArray.count) items · " + (viewModel.hasMore ? "scroll to the end for more" : "end of list")
        }
    }

    nonisolated func show(error: String) {
        MainScheduler.runOnMainActor { [weak self] in
            self?.status.setAttribute("class", "error footer")
            self?.status.text = error
        }
    }
}
