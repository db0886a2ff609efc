#if WebServer
import Accounts
import MVVM

/// What the to-do list's view models get when each person signs in to a list of their own
/// (`todo-web --accounts`): every owner's lists, and the tab's accounts.
public struct TodoAccountServices: Sendable {
    public let lists: TodoLists
    public let accounts: AccountServices

    public init(lists: TodoLists, accounts: AccountServices) {
        self.lists = lists
        self.accounts = accounts
    }
}

/// The to-do list's addresses with accounts: `/` is the signed-in person's own list (with its
/// filter and search, as ``TodoAddresses``); `/sign-in`, `/sign-up` and `/account` are the
/// account screens (``AccountAddresses``). A server that requires a user at `/` sends a
/// signed-out visit to `/sign-in?next=/`.
public enum TodoAccountAddresses: AppAddresses {
    public typealias Services = TodoAccountServices

    public nonisolated static func stack(at address: Address, services: TodoAccountServices) -> [any AnyObject & Sendable]? {
        let accounts = services.accounts
        if let screens = AccountAddresses.stack(at: address, services: accounts, home: list(services, at: Address())) { return screens }
        guard address.path.isEmpty else { return nil }
        return list(services, at: address)
    }

    /// The signed-in person's list, with the address's filter and search (the sign-in screen
    /// for no one: the server sends a signed-out visit there first).
    private static func list(_ services: TodoAccountServices, at address: Address) -> [any AnyObject & Sendable] {
        let accounts = services.accounts
        guard let user = accounts.account.user else { return [SignInViewModel(services: accounts, next: "/")] }
        let viewModel = TodoListViewModel(
            store: InMemoryTodoStore(), list: services.lists.list(of: user.id), signedInAs: user.email,
            openAccount: { AccountAddresses.openAccount(accounts) }
        )
        if let name = address["filter"], let filter = TodoFilter(addressName: name) { viewModel.filter.value = filter }
        if let query = address["q"] { viewModel.query.value = query }
        return [viewModel]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        AccountAddresses.address(of: viewModel) ?? TodoAddresses.address(of: viewModel, below: below)
    }

    /// Whether a signed-out visit to `path` goes to sign-in first: every address but the
    /// sign-in and sign-up screens'.
    public static func requiresSignIn(_ path: String) -> Bool {
        path != "/sign-in" && path != "/sign-up"
    }
}
#endif
