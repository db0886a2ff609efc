import FlickrSearch
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import PersonProfile
import ScreenKit
import Signals
import TodoList

extension ShowcaseApp {
    /// Opens the app: pushes its first view model on `factory`'s navigator (the only place that
    /// names each app's first view model), and returns the steps that do what `options` ask on
    /// its screens. Throws for an option no screen can take (an unknown list or category).
    @MainActor
    public func start(_ factory: ServiceFactory, options: ShowcaseOptions = ShowcaseOptions()) throws -> [ShowcaseStep] {
        let navigator = factory.navigator
        switch self {
        case .flickr:
            navigator.push(FlickrSearchViewModel(services: try factory.flickr()))
            guard let text = options.search else { return [] }
            return [
                ShowcaseStep { try $0.type(text, into: "Search") },
                ShowcaseStep(needs: "the search needs more than 3 characters: \(text)") { try $0.press("Go") },
            ]
        case .person:
            navigator.push(PersonBrowserViewModel(services: factory.person()))
            return []
        case .login:
            navigator.push(LoginViewModel(services: factory.login()))
            guard options.user != nil || options.password != nil else { return [] }
            return [
                ShowcaseStep { try $0.type(options.user ?? "", into: "User name") },
                ShowcaseStep { try $0.type(options.password ?? "", into: "Password") },
                ShowcaseStep(needs: "pass --user and --password, each at least 3 characters") { try $0.press("Login") },
            ]
        case .movies:
            // Only the list asked for is requested (not Now Playing first).
            let names: [String: Endpoint] = ["now-playing": .nowPlaying, "popular": .popular, "upcoming": .upcoming, "top-rated": .topRated]
            let list = try options.list.map { name throws(ServiceSetupError) -> Endpoint in
                guard let endpoint = names[name] else {
                    throw ServiceSetupError(description: "unknown list '\(name)': use now-playing, popular, upcoming or top-rated")
                }
                return endpoint
            }
            navigator.push(MoviesTabsViewModel(services: try factory.movies(), list: list ?? .nowPlaying))
            guard let query = options.search else { return [] }
            return [
                ShowcaseStep { try $0.choose("Search") },
                ShowcaseStep(pause: .seconds(1)) { try $0.type(query, into: "Search") },
            ]
        case .goods, .goodsDataController:
            let services = factory.goods()
            if self == .goods {
                navigator.push(CategoryListViewModel(services: services))
            } else {
                navigator.push(GoodsDataControllerCategories(services: services))
            }
            guard let id = options.category else { return [] }
            let ids = OfflineGoodsService.categories.map(\.category.sortID)
            guard ids.contains(id) else {
                throw ServiceSetupError(description: "unknown category '\(id)': use one of \(ids.joined(separator: ", "))")
            }
            let open = ShowcaseStep { try $0.select(rowID: id, in: "Categories") }
            // Each next page once the one before it shows: a list bound without a loading state
            // (the DataController variant) says nothing while a page loads, so its rows tell.
            let seen = Locked(0)
            let next = ShowcaseStep { driver in
                let count = try driver.rows(of: "Goods").count
                let before = seen.value
                if count == before, before > 0, try !driver.hasMore(in: "Goods") { return }  // the list ended
                guard count > before else { throw ScreenDriverError.busy("the goods list") }
                seen.withLock { $0 = count }
                try driver.scrollToEnd(of: "Goods")
            }
            return [open] + Array(repeating: next, count: options.page - 1)
        case .todo:
            navigator.push(TodoListViewModel(store: InMemoryTodoStore(), list: factory.todos))
            return []
        }
    }
}
