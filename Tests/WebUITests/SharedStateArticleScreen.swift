import MVVM
import ScreenKit
import Signals

// The store, the view model and the screen of 'Sharing state between tabs'
// (Sources/WebUI/WebUI.docc/SharingStateBetweenTabs.md), as a user's file has them: it imports
// ScreenKit, not WebUI (their TextField and Button are two different things). Checked against the
// article by SharedStateArticleTests.

/// The shopping list every tab shows: one per server, made before any session.
final class SharedShoppingList: Sendable {
    let items = MutableProperty<[String]>([])

    func add(_ item: String) {
        items.modify { $0.append(item) }
    }

    func remove(at index: Int) {
        items.modify { items in
            if items.indices.contains(index) { items.remove(at: index) }
        }
    }
}

/// One tab's view of the shared list: its own new item, the list everyone shares.
final class ShoppingListViewModel: Sendable {
    let newItem = MutableProperty("")
    let items: Property<[String]>
    let add: Action<Void, String, Never>
    private let shared: SharedShoppingList

    init(shared: SharedShoppingList) {
        self.shared = shared
        items = shared.items.readOnly
        let newItem = self.newItem
        add = Action(enabledIf: newItem.map { !$0.isEmpty }) { _ in
            let item = newItem.value
            shared.add(item)
            newItem.value = ""
            return .just(item)
        }
    }

    func remove(_ index: Int) { shared.remove(at: index) }
}

func shoppingListScreen(_ viewModel: ShoppingListViewModel) -> Screen {
    Screen("Shopping") {
        HStack {
            TextField("Item", text: viewModel.newItem, placeholder: "Milk, eggs…", onSubmit: viewModel.add, clearsOnSubmit: true)
            Button("Add", action: viewModel.add)
        }
        List(
            "Items",
            rows: viewModel.items.live.map { items in items.enumerated().map { ListRow(id: "\($0.offset)", title: $0.element) } },
            emptyText: "Nothing to buy.",
            rowButtons: [RowButton("Remove", shortcut: .control("d")) { id in Int(id).map(viewModel.remove) }]
        )
    }
}
