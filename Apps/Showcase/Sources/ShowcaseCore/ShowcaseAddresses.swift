import FlickrSearch
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import PersonProfile
import TodoList

/// A screen's address in the browser, without a view layer: its path's segments and its query
/// (`/flickr/results?q=sunset` is `["flickr", "results"]` and `q=sunset`). The browser keeps it in
/// the location bar, so a reload, a bookmark or a link opens the same screen: ``route(_:)`` says
/// what an address opens, ``addresses(of:)`` the address of each screen on a stack.
public struct ShowcaseAddress: Sendable, Equatable, CustomStringConvertible {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var segments: [String]
    public var query: [Item]

    public init(_ segments: [String] = [], query: [Item] = []) {
        self.segments = segments
        self.query = query.filter { !$0.value.isEmpty }
    }

    /// The first value of the query item `name`.
    public subscript(name: String) -> String? { query.first { $0.name == name }?.value }

    /// `/a/b?x=1`, unencoded (for messages and tests).
    public var description: String {
        "/" + segments.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
    }

    /// The movie lists' names in addresses.
    static let lists: [(name: String, endpoint: Endpoint)] = [
        ("now-playing", .nowPlaying), ("popular", .popular), ("upcoming", .upcoming), ("top-rated", .topRated),
    ]

    static func name(of endpoint: Endpoint) -> String {
        lists.first { $0.endpoint == endpoint }?.name ?? "now-playing"
    }
}

/// What an address opens: an app (or the launcher, `nil`), where it starts, and the steps after
/// its own that open the item the address names.
public struct ShowcaseRoute: Sendable {
    public var app: ShowcaseApp?
    public var options: ShowcaseOptions
    public var steps: [ShowcaseStep]
}

extension ShowcaseAddress {
    /// What `address` opens; `nil` when no screen has that address (a 404).
    public static func route(_ address: ShowcaseAddress) -> ShowcaseRoute? {
        var segments = address.segments[...]
        guard let first = segments.popFirst() else { return ShowcaseRoute(app: nil, options: ShowcaseOptions(), steps: []) }
        var options = ShowcaseOptions()
        var steps: [ShowcaseStep] = []
        func open(_ id: String, in list: String) {
            steps.append(ShowcaseStep { try $0.select(rowID: id, in: list) })
        }
        /// `/<kind>/<id>` next in the path: the item's id.
        func detail(_ kind: String) -> String? {
            guard segments.first == kind, segments.count >= 2 else { return nil }
            segments.removeFirst()
            return segments.popFirst()
        }
        let app: ShowcaseApp
        switch first {
        case "flickr":
            app = .flickr
            switch (segments.popFirst(), segments.popFirst()) {
            case (nil, nil):
                break
            case ("results", nil):
                guard let query = address["q"] else { return nil }
                options.search = query
            case ("photo", let id?):
                guard let query = address["q"] else { return nil }
                options.search = query
                open(id, in: "Photos")
            default:
                return nil
            }
        case "person":
            app = .person
            if let index = segments.popFirst() {
                guard Int(index) != nil else { return nil }
                open(index, in: "People")
            }
        case "login":
            app = .login
            guard segments.isEmpty || segments == ["welcome"] else { return nil }
            // The password is never in an address: the user name is typed, and the user signs in.
            if let user = address["user"] { steps.append(ShowcaseStep { try $0.type(user, into: "User name") }) }
            segments = []
        case "movies":
            app = .movies
            switch segments.popFirst() {
            case nil:
                break
            case "search":
                options.search = address["q"] ?? ""
                if let id = detail("movie") { open(id, in: "Results") }
            case let name?:
                guard lists.contains(where: { $0.name == name }) else { return nil }
                options.list = name
                if let id = detail("movie") { open(id, in: "Movies") }
            }
        case "goods", "goods-dc":
            app = first == "goods" ? .goods : .goodsDataController
            if let category = segments.popFirst() {
                guard OfflineGoodsService.categories.contains(where: { $0.category.sortID == category }) else { return nil }
                options.category = category
                // A page count that is not a number (or overflows Int) is no address, as 0 is not.
                guard let pages = Int(address["pages"] ?? "1"), (1...50).contains(pages) else { return nil }
                options.page = pages
                if let id = detail("item") { open(id, in: "Goods") }
            }
        case "todo":
            app = .todo
            // The filter and the search are in the address; the to-dos themselves are the
            // list's (one per server in the browser, shared by every tab).
            if let name = address["filter"] {
                guard let filter = TodoFilter(addressName: name), filter != .all else { return nil }
                steps.append(ShowcaseStep { try $0.press(filter.title) })
            }
            if let query = address["q"] { steps.append(ShowcaseStep { try $0.type(query, into: "Search") }) }
        default:
            return nil
        }
        guard segments.isEmpty else { return nil }
        return ShowcaseRoute(app: app, options: options, steps: steps)
    }

    /// The address of each view model on `stack`, bottom first (a screen the addresses do not
    /// know keeps the one below's).
    @MainActor
    public static func addresses(of stack: [AnyObject]) -> [ShowcaseAddress] {
        var out: [ShowcaseAddress] = []
        for (index, viewModel) in stack.enumerated() {
            let below = out.last ?? ShowcaseAddress()
            let address: ShowcaseAddress
            switch viewModel {
            case is LauncherViewModel:
                address = ShowcaseAddress()
            case is FlickrSearchViewModel:
                address = ShowcaseAddress(["flickr"])
            case let results as FlickrSearchResultsViewModel:
                address = ShowcaseAddress(["flickr", "results"], query: [Item("q", results.results.searchString)])
            case let detail as FlickrPhotoDetailViewModel:
                address = ShowcaseAddress(["flickr", "photo", detail.photo.identifier], query: below.query)
            case is PersonBrowserViewModel:
                address = ShowcaseAddress(["person"])
            case is PersonDetailViewModel:
                let browser = stack[..<index].last { $0 is PersonBrowserViewModel } as? PersonBrowserViewModel
                address = ShowcaseAddress(["person", String(browser?.selectedIndex ?? 0)])
            case let login as LoginViewModel:
                address = ShowcaseAddress(["login"], query: [Item("user", login.userName.value)])
            case is LoginSuccessViewModel:
                address = ShowcaseAddress(["login", "welcome"], query: below.query)
            case let movies as MoviesTabsViewModel:
                address = movies.selectedTab.value == 1
                    ? ShowcaseAddress(["movies", "search"], query: [Item("q", movies.search.query.value)])
                    : ShowcaseAddress(["movies", name(of: movies.list.endpoint.value)])
            case let detail as MovieDetailViewModel:
                address = ShowcaseAddress(below.segments + ["movie", String(detail.movieID)], query: below.query)
            case is CategoryListViewModel:
                address = ShowcaseAddress(["goods"])
            case let list as GoodsListViewModel:
                let pages = list.page.value
                address = ShowcaseAddress(["goods", list.category.value.sortID], query: [Item("pages", pages > 1 ? String(pages) : "")])
            case is GoodsDataControllerCategories:
                address = ShowcaseAddress(["goods-dc"])
            case let page as GoodsDataControllerPage:
                let pages = page.controller.dataController.page
                address = ShowcaseAddress(["goods-dc", page.category.sortID], query: [Item("pages", pages > 1 ? String(pages) : "")])
            case let detail as GoodsDetailViewModel:
                address = ShowcaseAddress(below.segments + ["item", detail.goodsID], query: below.query)
            case let todos as TodoListViewModel:
                let filter = todos.filter.value
                address = ShowcaseAddress(["todo"], query: [Item("filter", filter == .all ? "" : filter.addressName), Item("q", todos.query.value)])
            default:
                address = below
            }
            out.append(address)
        }
        return out
    }
}
