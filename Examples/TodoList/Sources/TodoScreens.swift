import MVVM
import ScreenKit
import Signals

// The to-do list's screen, described once (issue 25): the showcase shows it in a terminal, in a
// browser and in plain mode, and its tests drive it headless, with no code for any one layer.

/// The to-do list's screen.
public enum TodoScreens {
    /// Registers the screen of ``TodoListViewModel``.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(TodoListViewModel.self, list)
    }

    /// A new to-do's title (Enter adds it) and Add; which to-dos to show and a search; the
    /// to-dos, each with its checkbox (Space in a terminal, a click in a browser; choosing a row
    /// flips it too) and Delete (Ctrl-D on the highlighted row in a terminal); how many are
    /// left; Save, and why a save failed.
    public static func list(_ viewModel: TodoListViewModel) -> Screen {
        Screen("To-dos") {
            if let signedIn = viewModel.signedInText {
                HStack {
                    Text(signedIn, style: .secondary)
                    if let openAccount = viewModel.openAccount {
                        Button("Account") { openAccount() }
                    }
                }
            }
            HStack {
                TextField("New to-do", text: viewModel.newTitle, placeholder: "What needs doing?", onSubmit: viewModel.add, clearsOnSubmit: true)
                Button("Add", action: viewModel.add)
            }
            HStack {
                // Links in a browser: a filter opens in a new tab, or is bookmarked, as it shows.
                for filter in TodoFilter.allCases {
                    Button(filter.title, isEnabled: viewModel.filter.live.map { $0 != filter }) { viewModel.filter.value = filter }
                        .linking(query: TodoAddresses.query(showing: filter))
                }
            }
            TextField("Search", text: viewModel.query, placeholder: "Search the to-dos")
            List(
                "To-dos",
                rows: viewModel.visible.live.map { todos in todos.map { ListRow(id: String($0.id), title: $0.title, isOn: $0.isDone) } },
                emptyText: viewModel.list.isEmpty.live.map { $0 ? "Nothing to do yet." : "No to-do here." },
                onSelect: { index in
                    let visible = viewModel.visible.value
                    if visible.indices.contains(index) { viewModel.toggle(id: visible[index].id) }
                },
                onToggle: { id, isDone in Int(id).map { viewModel.setDone(id: $0, isDone) } },
                rowButtons: [RowButton("Delete", shortcut: .control("d")) { id in Int(id).map(viewModel.remove(id:)) }]
            )
            Text(viewModel.remainingText, style: .secondary)
            Text(viewModel.databaseText, style: .secondary)
            Button("Save", action: viewModel.save)
            Alert(viewModel.save.errors.map { AlertMessage(title: "Could not save", message: "\($0)") })
            Alert(viewModel.add.errors.map { AlertMessage(title: "Could not add the to-do", message: $0.message) }.merge(
                with: viewModel.problems.map { AlertMessage(title: "Could not change the list", message: $0.message) }
            ))
        }
        .hint("Enter: add", "Space: done", .terminalOnly("Ctrl-D: delete"), "Tab: next", "Esc: back")
    }
}

extension TodoFilter {
    /// What a button that shows these to-dos says.
    public var title: String {
        switch self {
        case .all: "All"
        case .active: "Active"
        case .done: "Done"
        }
    }
}

/// A store that keeps the saved to-dos in memory (the showcase's, and tests').
public actor InMemoryTodoStore: TodoStore {
    public private(set) var saved: [Todo] = []

    public init() {}

    public func save(_ todos: [Todo]) async throws {
        saved = todos
    }
}
