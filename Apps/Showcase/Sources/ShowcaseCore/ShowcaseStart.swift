import FlickrSearch
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import NewIssue
import PersonProfile
import TodoList

// The one list of the showcase's apps that names their view models: each app's addresses (its
// own, declared beside its screens), the services they are built with, and what the command
// line's options ask beyond an address. Nothing else in the showcase names an app's view model.

/// An app's addresses as the showcase uses them: built with a ``ServiceFactory``, on the
/// caller's executor (a browser session's own), except those of an app whose view models are
/// `@MainActor` (Person's): their stacks are built on the main actor, by ``MainActorStacks``.
public struct ShowcaseAppAddresses: Sendable {
    /// The view models an app's own address opens (its first screen first); `nil` when none of
    /// its screens has that address. Throws when the services cannot start (live mode, no key).
    /// `nil` for an app whose view models are `@MainActor`.
    public let stack: (@Sendable (Address, ServiceFactory) throws -> [any AnyObject & Sendable]?)?
    /// The app's own address of each view model on a stack of its screens, bottom first
    /// (as ``AppAddresses/addresses(of:below:)`` says them).
    public let addresses: @Sendable ([any AnyObject & Sendable]) -> [Address]

    /// Called with each app's own implementations (the address of a view model is always
    /// `nonisolated`: it only reads).
    init(stack: (@Sendable (Address, ServiceFactory) throws -> [any AnyObject & Sendable]?)?,
         address: @escaping @Sendable (any AnyObject, Address) -> Address?) {
        self.stack = stack
        addresses = { Address.addresses(of: $0, by: address) }
    }
}

/// The stacks of the apps whose view models are `@MainActor` (Person's, whose addresses conform
/// on the main actor), for a view layer on the main actor: the terminal's, or a browser session
/// that runs there. Made on the main actor; not `Sendable`, so the compiler keeps it there.
public final class MainActorStacks {
    private let person: (Address, ServiceFactory) -> [any AnyObject & Sendable]?

    @MainActor
    public init() {
        person = Self.stacks(of: PersonAddresses.self, services: { $0.person() })
    }

    /// `Addresses`' stacks, in the caller's isolation (the main actor's, for Person's).
    private static func stacks<Addresses: AppAddresses>(of _: Addresses.Type, services: @escaping (ServiceFactory) -> Addresses.Services)
        -> (Address, ServiceFactory) -> [any AnyObject & Sendable]? {
        { address, factory in Addresses.stack(at: address, services: services(factory)) }
    }

    /// The view models `address` opens in `app`, a main-actor app.
    func stack(of app: ShowcaseApp, at address: Address, factory: ServiceFactory) -> [any AnyObject & Sendable]? {
        precondition(app.runsOnMainActor, "\(app.rawValue)'s view models are not @MainActor")
        return person(address, factory)
    }
}

extension ShowcaseApp {
    /// Whether the app's view models are `@MainActor` (Person's, written as seed 001 writes
    /// them for `RACObserve`): its screens are shown only in a session on the main actor.
    public var runsOnMainActor: Bool { self == .person }

    /// The app's addresses.
    public var addresses: ShowcaseAppAddresses {
        switch self {
        case .flickr: return ShowcaseAppAddresses(stack: { FlickrAddresses.stack(at: $0, services: try $1.flickr()) }, address: FlickrAddresses.address(of:below:))
        case .person: return ShowcaseAppAddresses(stack: nil, address: PersonAddresses.address(of:below:))
        case .login: return ShowcaseAppAddresses(stack: { LoginAddresses.stack(at: $0, services: $1.login()) }, address: LoginAddresses.address(of:below:))
        case .movies: return ShowcaseAppAddresses(stack: { MovieAddresses.stack(at: $0, services: try $1.movies()) }, address: MovieAddresses.address(of:below:))
        case .goods: return ShowcaseAppAddresses(stack: { GoodsAddresses.stack(at: $0, services: $1.goods()) }, address: GoodsAddresses.address(of:below:))
        case .goodsDataController:
            return ShowcaseAppAddresses(stack: { DataControllerAddresses.stack(at: $0, services: $1.goods()) }, address: DataControllerAddresses.address(of:below:))
        case .todo: return ShowcaseAppAddresses(stack: { TodoAddresses.stack(at: $0, services: $1.todos) }, address: TodoAddresses.address(of:below:))
        case .newIssue:
            return ShowcaseAppAddresses(stack: { NewIssueAddresses.stack(at: $0, services: $1.newIssue()) }, address: NewIssueAddresses.address(of:below:))
        }
    }

    /// The app's own address that the command line's options ask for (`showcase flickr --search
    /// sunset` opens `/results?q=sunset`); throws, saying what to use, for an option no screen
    /// can take (an unknown list or category, a page out of range).
    public func address(for options: ShowcaseOptions) throws(ServiceSetupError) -> Address {
        switch self {
        case .flickr:
            guard let text = options.search else { return Address() }
            return Address(["results"], query: ["q": text])
        case .movies:
            if let name = options.list, MovieAddresses.endpoint(named: name) == nil {
                throw ServiceSetupError(description: "unknown list '\(name)': use \(MovieAddresses.listNames.map(\.name).joined(separator: ", "))")
            }
            if let query = options.search { return Address(["search"], query: ["q": query]) }
            return options.list.map { Address([$0]) } ?? Address()
        case .goods, .goodsDataController:
            guard let id = options.category else { return Address() }
            let ids = OfflineGoodsService.categories.map(\.category.sortID)
            guard ids.contains(id) else {
                throw ServiceSetupError(description: "unknown category '\(id)': use one of \(ids.joined(separator: ", "))")
            }
            guard (1...GoodsAddresses.maximumPages).contains(options.page) else {
                throw ServiceSetupError(description: "--page must be from 1 to \(GoodsAddresses.maximumPages)")
            }
            return Address([id], query: ["pages": options.page > 1 ? String(options.page) : ""])
        case .login:
            // The password is never in an address: ``finish(_:on:)`` signs in with it.
            return Address(query: ["user": options.user ?? ""])
        case .person, .todo, .newIssue:
            return Address()
        }
    }

    /// How long the app's screens may work after opening the options' address without showing
    /// it (a search throttled to one request a second sends its first one on the scheduler):
    /// plain mode waits this long before it waits for the work to end.
    public func quietPeriod(for options: ShowcaseOptions) -> Duration {
        self == .movies && options.search != nil ? MovieSearchViewModel.throttleInterval : .zero
    }

    /// Does what the options ask beyond the address, on the view model the address opened
    /// (`top`): a login signs in with `--password`. Throws, saying what the option needs, when
    /// it cannot be done (a search too short to run, fields too short to sign in).
    @MainActor
    public func finish(_ options: ShowcaseOptions, on top: (any AnyObject)?) throws(ServiceSetupError) {
        switch self {
        case .flickr:
            guard let text = options.search, let search = top as? FlickrSearchViewModel else { return }
            if !search.isSearchValid.value { throw ServiceSetupError(description: "the search needs more than 3 characters: \(text)") }
        case .login:
            guard options.user != nil || options.password != nil, let login = top as? LoginViewModel else { return }
            login.password.value = options.password ?? ""
            guard login.isLoginEnabled.value else { throw ServiceSetupError(description: "pass --user and --password, each at least 3 characters") }
            login.login.execute()
        default:
            return
        }
    }
}
