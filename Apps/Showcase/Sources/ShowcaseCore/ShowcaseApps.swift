import FlickrSearch
import Foundation
import GoodsCatalog
import LiveHTTP
import Login
import MVVM
import MovieInfo
import NewIssue
import PersonProfile
import Signals
import TodoList

/// The apps the showcase runs: the tutorials' apps, and the README's to-do list.
public enum ShowcaseApp: String, CaseIterable, Sendable {
    case flickr, person, login, movies, goods
    case goodsDataController = "goods-dc"
    case todo
    case newIssue = "new-issue"

    public var title: String {
        switch self {
        case .flickr: return "Flickr search"
        case .person: return "Person"
        case .login: return "Login"
        case .movies: return "Movies"
        case .goods: return "Goods catalog"
        case .goodsDataController: return "Goods catalog (DataController)"
        case .todo: return "To-do list"
        case .newIssue: return "New issue"
        }
    }

    /// One line about what the app does, for the launcher (which tutorial it comes from is in the
    /// docs: Apps/<app> and docs/SpecIDs.md).
    public var summary: String {
        switch self {
        case .flickr: return "Search photos as you would on Flickr, with your recent searches and each photo's counts"
        case .person: return "A few famous people: their names and birthdays; Enter opens one"
        case .login: return "Sign in: try ada/lovelace, grace/hopper or alan/turing"
        case .movies: return "Movies now playing, popular, upcoming and top rated, and a movie search"
        case .goods: return "A shop's categories, their goods page by page, and each item's details"
        case .goodsDataController: return "The same shop, its list written without bindings (a DataController)"
        case .todo: return "Add, check off, search and save to-dos (the README's example view model)"
        case .newIssue: return "An issue tracker's form: every control, each field with its own message"
        }
    }
}

/// Whether the apps talk to the live APIs.
public enum ServiceMode: Sendable, Equatable {
    case offline
    case live
}

/// What went wrong choosing the services, with what to do.
public struct ServiceSetupError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Builds each app's services: the embedded catalogs by default, the live clients when asked.
public struct ServiceFactory: Sendable {
    public let mode: ServiceMode
    public let environment: Environment
    public let scheduler: any Scheduler
    public let navigator: Navigator
    /// The to-do list the to-do app shows: in memory, or in a database (``TodoDatabase``) that
    /// every tab of a server, and every server on the same database, shares.
    public let todos: SharedTodos
    /// The login app's service, made on this factory's scheduler (real accounts); `nil`: the
    /// embedded one (``OfflineLoginService``).
    public let makeLogin: (@Sendable (any Scheduler) -> any LoginService)?

    public init(mode: ServiceMode, environment: Environment = Environment(), scheduler: any Scheduler, navigator: Navigator, todos: SharedTodos = SharedTodos(),
                login makeLogin: (@Sendable (any Scheduler) -> any LoginService)? = nil) {
        self.mode = mode
        self.environment = environment
        self.scheduler = scheduler
        self.navigator = navigator
        self.todos = todos
        self.makeLogin = makeLogin
    }

    /// The mode to use: `--live` asks for the live APIs; otherwise they are used when a key is
    /// set for the app; otherwise offline.
    public static func mode(for app: ShowcaseApp, live: Bool, environment: Environment) -> ServiceMode {
        if live { return .live }
        switch app {
        case .flickr: return environment["FLICKR_API_KEY"] == nil ? .offline : .live
        case .movies: return environment["TMDB_API_KEY"] == nil && environment["TMDB_READ_ACCESS_TOKEN"] == nil ? .offline : .live
        default: return .offline
        }
    }

    /// The mode a run uses (SH-1): `offline` (`--offline`) without `live` → offline; otherwise
    /// ``mode(for:live:environment:)``. Live mode that cannot start (no key, a base URL that is
    /// not http(s)) throws, saying why, unless `offline` was also given: then it runs offline
    /// and `note` says so. Never a silent fallback.
    public static func mode(for app: ShowcaseApp, live: Bool, offline: Bool, environment: Environment) throws(ServiceSetupError) -> (mode: ServiceMode, note: String?) {
        if offline && !live { return (.offline, nil) }
        let mode = mode(for: app, live: live, environment: environment)
        guard mode == .live, let problem = checkLive(app, environment: environment) else { return (mode, nil) }
        if offline { return (.offline, "\(problem.description) Running offline (--offline).") }
        throw ServiceSetupError(description: "\(problem.description) Live mode cannot start; pass --offline to use the embedded catalog.")
    }

    /// Checks that the live mode can run this app; says which variable to set if not.
    public static func checkLive(_ app: ShowcaseApp, environment: Environment) -> ServiceSetupError? {
        do {
            switch app {
            case .flickr: _ = try LiveFlickrService.Configuration.fromEnvironment(environment)
            case .movies: _ = try LiveMovieService.Configuration.fromEnvironment(environment)
            default: return nil
            }
            return nil
        } catch {
            return ServiceSetupError(description: "\(error)")
        }
    }

    /// The new issue's: its attachments kept in `SHOWCASE_ATTACHMENTS` (a folder, made if
    /// missing), else in `showcase-attachments` in the temporary folder.
    public func newIssue() -> NewIssueServices {
        let folder = environment["SHOWCASE_ATTACHMENTS"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("showcase-attachments").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return NewIssueServices(scheduler: scheduler, attachmentsFolder: folder)
    }

    public func flickr() throws -> FlickrServices {
        let search: any FlickrSearchService
        if mode == .live {
            do {
                search = LiveFlickrService(configuration: try LiveFlickrService.Configuration.fromEnvironment(environment))
            } catch {
                throw ServiceSetupError(description: error.description)
            }
        } else {
            search = OfflineFlickrService(scheduler: scheduler)
        }
        return FlickrServices(search: search, navigator: navigator, scheduler: scheduler)
    }

    public func movies() throws -> MovieServices {
        let movies: any MovieService
        if mode == .live {
            do {
                movies = LiveMovieService(configuration: try LiveMovieService.Configuration.fromEnvironment(environment))
            } catch {
                throw ServiceSetupError(description: error.description)
            }
        } else {
            movies = OfflineMovieService(scheduler: scheduler)
        }
        return MovieServices(movies: movies, navigator: navigator, scheduler: scheduler)
    }

    public func login() -> LoginServices {
        LoginServices(login: makeLogin?(scheduler) ?? OfflineLoginService(scheduler: scheduler), navigator: navigator)
    }

    public func person() -> PersonServices {
        PersonServices(people: OfflinePersonService(scheduler: scheduler), navigator: navigator)
    }

    public func goods() -> GoodsServices {
        GoodsServices(goods: OfflineGoodsService(scheduler: scheduler), navigator: navigator)
    }
}

/// The launcher's view model: the list of apps.
public final class LauncherViewModel: Sendable {
    public let title = "MVVMKit showcase"
    public let apps = ShowcaseApp.allCases
    private let open: @Sendable (ShowcaseApp) -> Void

    public init(open: @escaping @Sendable (ShowcaseApp) -> Void) {
        self.open = open
    }

    public var rows: [(title: String, summary: String)] { apps.map { ($0.title, $0.summary) } }

    public func select(index: Int) {
        guard apps.indices.contains(index) else { return }
        open(apps[index])
    }
}
