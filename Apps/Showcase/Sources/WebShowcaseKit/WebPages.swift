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
        registry.register(LauncherViewModel.self) { [unowned self] in self.launcher($0) }
        registry.register(FlickrSearchViewModel.self) { [unowned self] in self.flickrSearch($0) }
        registry.register(FlickrSearchResultsViewModel.self) { [unowned self] in self.flickrResults($0) }
        registry.register(FlickrPhotoDetailViewModel.self) { [unowned self] in self.flickrPhotoDetail($0) }
        registry.register(PersonBrowserViewModel.self, described: PersonScreens.browser)
        registry.register(PersonDetailViewModel.self, described: PersonScreens.detail)
        registry.register(LoginViewModel.self, described: LoginScreens.login)
        registry.register(LoginSuccessViewModel.self, described: LoginScreens.success)
        registry.register(MoviesTabsViewModel.self) { [unowned self] in self.movies($0) }
        registry.register(MovieDetailViewModel.self) { [unowned self] in self.movieDetail($0) }
        registry.register(CategoryListViewModel.self, described: GoodsScreens.categories)
        registry.register(GoodsListViewModel.self, described: GoodsScreens.goodsList)
        registry.register(GoodsDetailViewModel.self, described: GoodsScreens.detail)
        registry.register(GoodsDataControllerCategories.self) { [unowned self] in self.dataControllerCategories($0) }
        registry.register(GoodsDataControllerPage.self) { [unowned self] in self.dataControllerList($0) }
        return registry
    }

    /// Shows each value of `alerts` as a dialog over the page of `element`.
    private func presentAlerts(_ alerts: Signal<(title: String, message: String), Never>, on element: Element) {
        alerts.asDriver().drive { [weak element] alert in
            element?.document?.present(title: alert.title, message: alert.message)
        }.disposed(by: element.bag)
    }

    // MARK: Launcher

    func launcher(_ viewModel: LauncherViewModel) -> NavigationStack.Page {
        let list = ListView()
        list.rows = viewModel.rows.enumerated().map { ListView.Row(key: String($0), title: $1.title, detail: $1.summary) }
        list.selected.sink(value: { viewModel.select(index: $0) }).disposed(by: list.bag)
        let content = Stack(.vertical, [
            Label("Apps from the MVVM tutorials, running on MVVMKit: the same view models as the terminal showcase.", tag: "p", class: "dim"),
            list,
        ])
        return .init(title: viewModel.title, content: content)
    }

    // MARK: Flickr

    func flickrSearch(_ viewModel: FlickrSearchViewModel) -> NavigationStack.Page {
        let field = TextField(placeholder: "Search Flickr (more than 3 characters)")
        field.setAttribute("autofocus", "")
        field.bind(to: viewModel.searchText)
        field.submissions.sink(value: { _ in viewModel.executeSearch.execute() }).disposed(by: field.bag)
        let go = Button("Go")
        go.bind(to: viewModel.executeSearch)
        let spinner = Spinner(label: "Searching Flickr…")
        viewModel.isSearching.signal.bind(to: spinner, \.isAnimating)
        let noResults = Label("", tag: "p", class: "dim")
        viewModel.noResultsText.signal.map { $0 ?? "" }.bind(to: noResults, \.text)
        let recent = ListView(emptyText: "No searches yet")
        let images = self.images
        viewModel.recentRows.signal
            .map { rows in
                rows.map { row in
                    ListView.Row(key: row.text, title: row.text, detail: "\(row.totalText) photos",
                                 image: images.source(row.thumbnail, label: row.text, key: row.text, width: 150, height: 150), imageDescription: row.text)
                }
            }
            .bind(to: recent, \.rows)
        recent.selected.sink(value: { viewModel.selectRecentSearch(at: $0) }).disposed(by: recent.bag)
        let content = Stack(.vertical, [
            Stack(.horizontal, [field, go]),
            spinner,
            noResults,
            Label("Recent searches", tag: "h2"),
            recent,
        ])
        // FS-V5: connection errors become a dialog; the typed text stays.
        presentAlerts(viewModel.alerts.map { ($0.title, $0.message) }, on: content)
        return .init(title: viewModel.title, content: content)
    }

    func flickrResults(_ viewModel: FlickrSearchResultsViewModel) -> NavigationStack.Page {
        let list = ListView(emptyText: "No photos found.", class: "photos")
        let images = self.images
        viewModel.rows.signal
            .flatMapLatest { items in
                Property.combineLatest(items.map(\.countsRowText)).signal.map { counts in
                    zip(items, counts).map { item, counts in
                        ListView.Row(key: item.photo.identifier, title: item.title, detail: counts,
                                     image: images.source(item.url, label: item.title, key: item.photo.identifier, width: 150, height: 150), imageDescription: item.title)
                    }
                }
            }
            .bind(to: list, \.rows)
        viewModel.hasMore.signal.bind(to: list, \.loadsMore)
        list.selected.sink(value: { viewModel.select(index: $0) }).disposed(by: list.bag)
        list.reachedEnd.sink(value: { viewModel.next() }).disposed(by: list.bag)
        // FS-V8: rows tell their item view models when they scroll in and out of view.
        list.visibleRows.sink(value: { range in
            for (index, item) in viewModel.items.enumerated() { item.isVisible.value = range.contains(index) }
        }).disposed(by: list.bag)
        let summary = Label("", tag: "p", class: "dim")
        viewModel.summaryText.signal.bind(to: summary, \.text)
        let footer = Label("", tag: "p", class: "dim footer")
        viewModel.footerText.signal.map { $0 ?? "" }.bind(to: footer, \.text)
        let content = Stack(.vertical, [summary, list, footer])
        return .init(title: viewModel.title, content: content)
    }

    func flickrPhotoDetail(_ viewModel: FlickrPhotoDetailViewModel) -> NavigationStack.Page {
        let counts = Label("")
        viewModel.countsText.signal.bind(to: counts, \.text)
        let image = Image(source: images.source(viewModel.largeImageURL, label: viewModel.title, key: viewModel.photo.identifier, width: 640, height: 480),
                          description: viewModel.title, class: "photo")
        let page = viewModel.photo.pageURL.map { Element("a", ["href": $0.absoluteString, "target": "_blank", "rel": "noopener"], text: viewModel.pageText) }
            ?? Label(viewModel.pageText, class: "dim")
        let back = Button("Back") { viewModel.back() }
        let content = Stack(.vertical, [
            image,
            Label(viewModel.title, tag: "h2"),
            Label(viewModel.ownerText, class: "dim"),
            counts,
            Stack(.horizontal, [Label("Page:", class: "dim"), page]),
            back,
        ])
        return .init(title: "Photo", content: content)
    }

    // MARK: Movies

    nonisolated static func movieRows(_ cells: [MovieCellViewModel], images: ImageSource) -> [ListView.Row] {
        cells.map {
            ListView.Row(key: String($0.id), title: "\($0.title)  \($0.ratingText)", detail: "\($0.releaseDateText) · \($0.overview)",
                         image: images.source($0.posterURL, label: $0.title, key: String($0.id), width: 120, height: 180), imageDescription: "Poster of \($0.title)")
        }
    }

    func movies(_ viewModel: MoviesTabsViewModel) -> NavigationStack.Page {
        let listModel = viewModel.list, searchModel = viewModel.search
        let images = self.images
        let segments = SegmentedControl(listModel.segments)
        segments.bind(to: listModel.selectedIndex)
        let listSpinner = Spinner(label: "Loading…")
        listModel.isFetching.signal.bind(to: listSpinner, \.isAnimating)
        let listError = Label("", tag: "p", class: "error")
        listModel.errorText.signal.map { $0 ?? "" }.bind(to: listError, \.text)
        let retryList = Button("Retry") { listModel.retry() }
        listModel.canRetry.signal.map { !$0 }.bind(to: retryList, \.isHidden)
        let list = ListView(class: "posters")
        listModel.movies.signal.map { Self.movieRows($0, images: images) }.bind(to: list, \.rows)
        listModel.hasMore.signal.bind(to: list, \.loadsMore)
        list.selected.sink(value: { listModel.select(index: $0) }).disposed(by: list.bag)
        list.reachedEnd.sink(value: { listModel.next() }).disposed(by: list.bag)
        let listFooter = Label("", tag: "p", class: "dim footer")
        listModel.footerText.signal.map { $0 ?? "" }.bind(to: listFooter, \.text)
        let moviesTab = Stack(.vertical, [segments, listSpinner, Stack(.horizontal, [listError, retryList]), list, listFooter])

        let query = TextField(placeholder: "Search movies")
        query.bind(to: searchModel.query)
        let searchSpinner = Spinner(label: "Searching…")
        searchModel.isFetching.signal.bind(to: searchSpinner, \.isAnimating)
        let searchInfo = Label("", tag: "p", class: "dim")
        searchModel.infoText.signal.map { $0 ?? "" }.bind(to: searchInfo, \.text)
        let retrySearch = Button("Retry") { searchModel.retry() }
        searchModel.canRetry.signal.map { !$0 }.bind(to: retrySearch, \.isHidden)
        let results = ListView(class: "posters")
        searchModel.movies.signal.map { Self.movieRows($0, images: images) }.bind(to: results, \.rows)
        results.selected.sink(value: { searchModel.select(index: $0) }).disposed(by: results.bag)
        let searchTab = Stack(.vertical, [query, searchSpinner, Stack(.horizontal, [searchInfo, retrySearch]), results])

        let tabs = TabBar([(title: viewModel.tabs[0], content: moviesTab), (title: viewModel.tabs[1], content: searchTab)])
        tabs.bind(to: viewModel.selectedTab)
        // MI-R: a list that fails says so in a dialog too (the inline text and Retry stay).
        presentAlerts(listModel.errorText.signal.compactMap { $0 }.map { ("Could not load movies", $0) }, on: tabs)
        return .init(title: "Movies", content: tabs)
    }

    func movieDetail(_ viewModel: MovieDetailViewModel) -> NavigationStack.Page {
        let release = Label(""), rating = Label(""), genres = Label(""), runtime = Label(""), cast = Label("", tag: "p")
        let overview = Label("", tag: "p"), error = Label("", tag: "p", class: "error")
        viewModel.releaseText.signal.map { "Released: \($0)" }.bind(to: release, \.text)
        viewModel.ratingText.signal.map { "Rating: \($0)" }.bind(to: rating, \.text)
        viewModel.genresText.signal.map { "Genres: \($0)" }.bind(to: genres, \.text)
        viewModel.runtimeText.signal.map { "Runtime: \($0)" }.bind(to: runtime, \.text)
        viewModel.castText.signal.map { "Cast: \($0)" }.bind(to: cast, \.text)
        viewModel.overview.signal.bind(to: overview, \.text)
        viewModel.errorText.signal.map { $0 ?? "" }.bind(to: error, \.text)
        let trailer = Element("a", ["target": "_blank", "rel": "noopener", "hidden": ""], text: "Trailer")
        viewModel.trailerURL.signal.asDriver().drive { [weak trailer] url in
            trailer?.setAttribute("href", url?.absoluteString)
            trailer?.isHidden = url == nil
        }.disposed(by: trailer.bag)
        let poster = Image(source: "", description: "Poster of \(viewModel.title)", class: "poster-large")
        let images = self.images, key = String(viewModel.movieID), title = viewModel.title
        viewModel.detail.signal.map { detail in
            images.source(detail?.movie.posterURL, label: title, key: key, width: 185, height: 278)
        }.bind(to: poster, \.source)
        let spinner = Spinner(label: "Loading details…")
        viewModel.isLoading.signal.bind(to: spinner, \.isAnimating)
        viewModel.load()
        let facts = Stack(.vertical, [Label(viewModel.title, tag: "h2"), release, rating, genres, runtime, cast, trailer])
        let content = Stack(.vertical, [spinner, error, Stack(.horizontal, class: "top", [poster, facts]), overview])
        return .init(title: viewModel.title, content: content)
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
