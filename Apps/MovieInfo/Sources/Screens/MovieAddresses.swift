import MVVM

/// Movie info's addresses, beside its screens: a list at `/now-playing`, `/popular`,
/// `/upcoming` or `/top-rated` (`/` opens Now Playing), the search at `/search?q=storm`, and a
/// movie over either at `…/movie/ID`: its detail loads by its id.
public enum MovieAddresses: AppAddresses {
    public typealias Services = MovieServices

    /// Each list's name in addresses.
    public static let listNames: [(name: String, endpoint: Endpoint)] = [
        ("now-playing", .nowPlaying), ("popular", .popular), ("upcoming", .upcoming), ("top-rated", .topRated),
    ]

    /// The list named `name` in an address, if there is one.
    public static func endpoint(named name: String) -> Endpoint? {
        listNames.first { $0.name == name }?.endpoint
    }

    public nonisolated static func stack(at address: Address, services: MovieServices) -> [any AnyObject & Sendable]? {
        var path = address.path[...]
        let tabs: MoviesTabsViewModel
        switch path.popFirst() {
        case nil:
            tabs = MoviesTabsViewModel(services: services)
        case "search":
            tabs = MoviesTabsViewModel(services: services)
            tabs.selectedTab.value = 1
            tabs.search.query.value = address["q"] ?? ""
        case let name?:
            guard let endpoint = endpoint(named: name) else { return nil }
            tabs = MoviesTabsViewModel(services: services, list: endpoint)
        }
        switch (path.popFirst(), path.popFirst(), path.popFirst()) {
        case (nil, nil, nil):
            return [tabs]
        case ("movie", let id?, nil):
            guard let movieID = Int(id), movieID > 0, !address.path.isEmpty else { return nil }
            return [tabs, MovieDetailViewModel(movieID: movieID, services: services)]
        default:
            return nil
        }
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case let tabs as MoviesTabsViewModel:
            if tabs.selectedTab.value == 1 { return Address(["search"], query: ["q": tabs.search.query.value]) }
            let endpoint = tabs.list.endpoint.value
            return Address([listNames.first { $0.endpoint == endpoint }?.name ?? "now-playing"])
        case let detail as MovieDetailViewModel:
            return Address(below.path + ["movie", String(detail.movieID)], query: below.query)
        default:
            return nil
        }
    }
}
