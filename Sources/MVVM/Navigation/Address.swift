/// Where a screen is: its path's segments and its query, as a browser's location bar shows it
/// (`/results?q=sunset` is `["results"]` and `q=sunset`), without a view layer. A reload, a
/// bookmark or a link opens the same screen, because an app says both ways how its screens and
/// their addresses go together (``AppAddresses``).
///
/// Segments and values are plain text: a view layer encodes and decodes them (the browser's
/// percent-encoding is WebUI's). A query item with an empty value is no item.
///
/// ```swift
/// let address = Address(["photo", "53"], query: ["q": "sunset"])
/// address.description   // "/photo/53?q=sunset"
/// address["q"]          // "sunset"
/// ```
public struct Address: Sendable, Hashable, CustomStringConvertible {
    /// One `name=value` of the query.
    public struct Item: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The path's segments, first first: `/photo/53` is `["photo", "53"]`; `/` is `[]`.
    public var path: [String]
    /// The query's items, in order; none has an empty value.
    public var query: [Item] {
        didSet { query.removeAll { $0.value.isEmpty } }
    }

    /// An address; query items whose value is empty are left out (an empty search is no search).
    public init(_ path: [String] = [], query: [Item] = []) {
        self.path = path
        self.query = query.filter { !$0.value.isEmpty }
    }

    /// An address whose query is given in order as pairs: `Address(["results"], query: ["q": text])`.
    public init(_ path: [String] = [], query: KeyValuePairs<String, String>) {
        self.init(path, query: query.map { Item($0.key, $0.value) })
    }

    /// The value of the first query item named `name`.
    public subscript(name: String) -> String? { query.first { $0.name == name }?.value }

    /// `/a/b?x=1`, not encoded (for messages, logs and tests).
    public var description: String {
        "/" + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
    }

    /// This address under `prefix`: `Address(["photo", "53"]).under(["flickr"])` is
    /// `/flickr/photo/53`. An app's addresses start at `/`; whoever mounts it adds its prefix.
    public func under(_ prefix: [String]) -> Address {
        Address(prefix + path, query: query)
    }

    /// What is left of this address after `prefix`, or `nil` when its path does not start with
    /// `prefix`.
    public func dropping(_ prefix: [String]) -> Address? {
        guard path.starts(with: prefix) else { return nil }
        return Address(Array(path.dropFirst(prefix.count)), query: query)
    }

    /// The same path with only the query items named in `names` (an address a screen shares with
    /// the one below it keeps the parts that are its).
    public func keeping(_ names: Set<String>) -> Address {
        Address(path, query: query.filter { names.contains($0.name) })
    }
}

/// An app's addresses, declared beside its screens: the address of each screen as a function of
/// its view model's state, and the stack of view models an address opens (Phoenix LiveView's
/// `handle_params`, SwiftUI's `navigationDestination(for:)`). A deep link builds its stack from
/// the address; nothing is pressed to get there.
///
/// Addresses are the app's own, starting at `/`; a host that shows several apps mounts each
/// under a prefix (``Address/under(_:)``). The view layer asks ``address(of:below:)`` for each
/// view model on the stack, bottom first, so a screen that adds to the one below (a detail over
/// its list) builds on `below`.
///
/// ```swift
/// enum NotesAddresses: AppAddresses {
///     typealias Services = NotesServices
///
///     static func stack(at address: Address, services: NotesServices) -> [any AnyObject & Sendable]? {
///         let list = NotesListViewModel(services: services)
///         let path = address.path
///         switch (path.first, path.count) {
///         case (nil, _): return [list]
///         case ("note", 2): return [list, NoteViewModel(id: path[1], services: services)]
///         default: return nil
///         }
///     }
///
///     static func address(of viewModel: any AnyObject, below: Address) -> Address? {
///         switch viewModel {
///         case is NotesListViewModel: return Address()
///         case let note as NoteViewModel: return Address(["note", note.id])
///         default: return nil
///         }
///     }
/// }
/// ```
///
/// An app whose view models are not `@MainActor` builds its stacks wherever its screens live (a
/// browser session's own executor). One whose view models are `@MainActor` says so where it
/// conforms, and implements the requirements on the main actor:
///
/// ```swift
/// @MainActor enum PeopleAddresses: @MainActor AppAddresses { ... }
/// ```
///
/// (Swift 6.2's main-actor default isolation infers that.) The compiler then keeps its addresses
/// on the main actor: a view layer that builds stacks on other executors refuses them.
public protocol AppAddresses {
    /// What the app's view models are built with.
    associatedtype Services

    /// The view models `address` opens, the app's first screen first; `nil` when none of the
    /// app's screens has that address (a value it cannot read, an item that does not exist in
    /// the path). A view model may go on from there by itself (a search the address names runs,
    /// and its results open when they arrive), by the app's own calls, never by pressing buttons.
    static func stack(at address: Address, services: Services) -> [any AnyObject & Sendable]?

    /// The address of `viewModel`'s screen, `below` being the address of the screen under it
    /// (`/` for the first); `nil` when `viewModel` is not one of the app's.
    static func address(of viewModel: any AnyObject, below: Address) -> Address?
}

extension AppAddresses {
    /// The address of each view model on `stack`, bottom first; a view model the app does not
    /// know keeps the address below it.
    public static func addresses(of stack: [any AnyObject & Sendable], below first: Address = Address()) -> [Address] {
        Address.addresses(of: stack, below: first) { address(of: $0, below: $1) }
    }
}

extension Address {
    /// The address of each view model on `stack`, bottom first, each as `address` gives it from
    /// the address below it (`first` under the bottom one); a view model `address` does not know
    /// (`nil`) keeps the address below it.
    ///
    /// ``AppAddresses/addresses(of:below:)`` is this with the app's own
    /// ``AppAddresses/address(of:below:)``; a view layer that keeps several apps' addresses
    /// apart calls this with each app's function:
    ///
    /// ```swift
    /// let addresses = Address.addresses(of: navigator.stack, by: NotesAddresses.address(of:below:))
    /// ```
    public static func addresses(of stack: [any AnyObject & Sendable], below first: Address = Address(),
                                 by address: (any AnyObject, Address) -> Address?) -> [Address] {
        var out: [Address] = []
        out.reserveCapacity(stack.count)
        for viewModel in stack {
            let below = out.last ?? first
            out.append(address(viewModel, below) ?? below)
        }
        return out
    }
}
