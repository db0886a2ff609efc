import MVVM

/// The to-do list's address, beside its screen: `/`, with the filter and the search in its query
/// (`/?filter=active&q=milk`), so a reload or a bookmark shows the same list. The to-dos
/// themselves are the shared list's, not the address's. A filter the list does not know shows
/// every to-do, as no filter does; other query items are ignored.
public enum TodoAddresses: AppAddresses {
    public typealias Services = SharedTodos

    public nonisolated static func stack(at address: Address, services list: SharedTodos) -> [any AnyObject & Sendable]? {
        guard address.path.isEmpty else { return nil }
        let viewModel = TodoListViewModel(store: InMemoryTodoStore(), list: list)
        if let name = address["filter"], let filter = TodoFilter(addressName: name) { viewModel.filter.value = filter }
        if let query = address["q"] { viewModel.query.value = query }
        return [viewModel]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        guard let list = viewModel as? TodoListViewModel else { return nil }
        // (Asked before every frame a tab sends: two items, no dictionary to hash.)
        return Address(query: [item(showing: list.filter.value), Address.Item("q", list.query.value)])
    }

    /// The query item that shows `filter` (empty, so no item, for every to-do).
    nonisolated static func item(showing filter: TodoFilter) -> Address.Item {
        Address.Item("filter", filter == .all ? "" : filter.addressName)
    }

    /// The query items that show `filter` (none for every to-do): the address's, and the
    /// filter buttons' links (a browser opens one in a new tab at that filter).
    public nonisolated static func query(showing filter: TodoFilter) -> [String: String] {
        let item = item(showing: filter)
        return [item.name: item.value]
    }
}
