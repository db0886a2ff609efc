import MVVM

/// The showcase's addresses: the launcher at `/`, and each app's own addresses under its name
/// (`/flickr/results?q=sunset` is Flickr's `/results?q=sunset`). The apps declare their
/// addresses beside their screens; the showcase only mounts them.
public enum ShowcaseAddresses {
    /// Where `address` goes: the app (`nil` for the launcher) and the app's own address; `nil`
    /// when no app has that name.
    public static func route(_ address: Address) -> (app: ShowcaseApp?, address: Address)? {
        guard let name = address.path.first else { return (nil, address) }
        guard let app = ShowcaseApp(rawValue: name), let own = address.dropping([name]) else { return nil }
        return (app, own)
    }

    /// The view models `address` opens in `app`, built with `factory`; `nil` when none of its
    /// screens has that address. Throws when the app's services cannot start.
    @MainActor
    public static func stack(of app: ShowcaseApp, at address: Address, factory: ServiceFactory) throws -> [any AnyObject & Sendable]? {
        try stack(of: app, at: address, factory: factory, mainActor: MainActorStacks())
    }

    /// The same on any executor: an app whose view models are `@MainActor`
    /// (``ShowcaseApp/runsOnMainActor``) only with `mainActor`, which only the main actor has.
    public static func stack(of app: ShowcaseApp, at address: Address, factory: ServiceFactory,
                             mainActor: MainActorStacks?) throws -> [any AnyObject & Sendable]? {
        guard let stack = app.addresses.stack else {
            guard let mainActor else { preconditionFailure("\(app.rawValue)'s stacks are built on the main actor") }
            return mainActor.stack(of: app, at: address, factory: factory)
        }
        return try stack(address, factory)
    }

    /// The address of each view model on `stack`, bottom first: the launcher's `/`, then `app`'s
    /// screens under its name (a view model the app does not know keeps the one below's).
    public static func addresses(of stack: [any AnyObject & Sendable], in app: ShowcaseApp?) -> [Address] {
        let launchers = stack.prefix { $0 is LauncherViewModel }.count
        let own = stack.dropFirst(launchers)
        guard let app, !own.isEmpty else { return Array(repeating: Address(), count: stack.count) }
        return Array(repeating: Address(), count: launchers) + app.addresses.addresses(Array(own)).map { $0.under([app.rawValue]) }
    }
}
