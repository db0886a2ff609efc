import MVVM
import Signals
import Store

// A to-do list view model written from the README alone (issue 15): add, remove, toggle,
// filter, search, and a save `Action` over an `async throws` store. It compiles and is tested
// (Examples/TodoList/Tests), so the API it shows keeps working.

/// One to-do.
public struct Todo: Sendable, Equatable, Identifiable {
    public let id: Int
    public var title: String
    public var isDone: Bool

    public init(id: Int, title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }
}

/// Which to-dos the list shows.
public enum TodoFilter: Int, CaseIterable, Sendable {
    case all, active, done

    /// How an address names the filter (`?filter=active`): its case name.
    public var addressName: String { "\(self)" }

    /// The filter an address names, if any.
    public init?(addressName: String) {
        guard let filter = Self.allCases.first(where: { $0.addressName == addressName }) else { return nil }
        self = filter
    }

    public func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.isDone
        case .done: todo.isDone
        }
    }
}

/// Where to-dos are kept: a file, a server. Untyped errors, as most services have.
public protocol TodoStore: Sendable {
    func save(_ todos: [Todo]) async throws
}

/// The to-do list screen's view model.
public final class TodoListViewModel: Sendable {
    // Inputs, bound two-way to the view's controls.
    public let newTitle = MutableProperty("")
    public let filter = MutableProperty(TodoFilter.all)
    public let query = MutableProperty("")

    // Outputs.
    public let todos: Property<[Todo]>
    /// The to-dos the list shows: filtered and searched, in the order they were added.
    public let visible: Property<[Todo]>
    public let canAdd: Property<Bool>
    /// "2 items left", "1 item left".
    public let remainingText: Property<String>
    /// Whether there are changes the store has not saved.
    public let hasUnsavedChanges: Property<Bool>
    /// What the screen says while the list's database is away (`nil` while it answers).
    public let databaseText: Property<String?>
    /// Each change to the list that could not be made (a tick, a delete), as the screen says it.
    public let problems: Signal<StoreError, Never>

    /// Adds `newTitle` (trimmed) as a to-do and clears the field; enabled while the title has
    /// text. Applied while an add is still being stored, it waits its turn (it queues), so two
    /// to-dos entered back to back are both added, in order. Its values are the added to-dos; its errors why one was not added (the title then
    /// comes back to the field, if nothing new was typed there meanwhile).
    public let add: Action<Void, Todo, StoreError>
    /// Saves the list; enabled while there are unsaved changes and no save is running. Its
    /// errors are the store's (any `Error`).
    public let save: Action<Void, [Todo], any Error>

    /// The list this view model shows and changes: its own, or one it shares with others (every
    /// tab of a web app, see ``SharedTodos``).
    public let list: SharedTodos
    /// Whose list it is, for the screen to say ("Signed in as ada@example.com"); `nil`: a list
    /// with no owner.
    public let signedInText: String?
    /// Opens the signed-in person's account screen (`nil`: no account to open).
    public let openAccount: (@Sendable () -> Void)?
    private let bag = DisposeBag()

    /// A new add's key: 128 random bits, in hex.
    static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// A view model of `list` (a new list of its own if not given), saving to `store`;
    /// `signedInAs` names the signed-in person whose list it is, `openAccount` opens their
    /// account screen.
    public init(store: any TodoStore, list: SharedTodos = SharedTodos(), signedInAs: String? = nil, openAccount: (@Sendable () -> Void)? = nil) {
        self.list = list
        signedInText = signedInAs.map { "Signed in as \($0)" }
        self.openAccount = openAccount
        let newTitle = self.newTitle
        let unconfirmed = Locked<(title: String, key: String)?>(nil)
        let items = list.todos
        todos = items
        visible = Property.combineLatest(items, filter, query) { items, filter, query in
            // Every to-do, unfiltered: the list's own array (no copy in each tab).
            if filter == .all && query.isEmpty { return items }
            let query = query.lowercased()
            return items.filter { filter.includes($0) && (query.isEmpty || $0.title.lowercased().contains(query)) }
        }
        canAdd = newTitle.map { Self.trimmed($0).isEmpty == false }.removeDuplicates()
        // Worked out by the list, once for all its view models.
        remainingText = list.remainingText
        hasUnsavedChanges = list.hasUnsavedChanges
        databaseText = list.status.map { status in
            guard case .unavailable = status else { return nil }
            return "The list's database is unavailable: changes are refused until it is back."
        }
        problems = list.problems

        add = Action(enabledIf: canAdd, whileExecuting: .queue) { _ in
            // The field is cleared at once, in the turn of the Enter that added it (what the user
            // types next is the next to-do, even while a database takes the add); an add made
            // while the one before is being stored waits its turn (both are added, in order). If
            // the list could not keep it, the title comes back, unless something new was typed
            // meanwhile (the error then names it).
            // An add that failed keeps its key with its title: Add pressed again for that title
            // (given back to the field) is the same add, which the list applies once even if the
            // first was saved after all ("it may have been saved"). A new title is a new add.
            let title = Self.trimmed(newTitle.value)
            let key = unconfirmed.withLock { $0?.title == title ? $0?.key : nil } ?? Self.newKey()
            newTitle.value = ""
            return list.add(title: title, key: key).handleEvents(onValue: { _ in
                unconfirmed.withLock { if $0?.key == key { $0 = nil } }
            }, onCompletion: { completion in
                guard completion.failure != nil else { return }
                unconfirmed.withLock { $0 = (title, key) }
                if newTitle.value.isEmpty { newTitle.value = title }
            })
        }
        save = Action(enabledIf: hasUnsavedChanges) { _ in
            let snapshot = items.value
            try await store.save(snapshot)
            return snapshot
        }
        save.outputs.sink(value: { list.markSaved($0) }).disposed(by: bag)
    }

    /// Removes the to-do with `id`.
    public func remove(id: Int) {
        list.remove(id: id)
    }

    /// Marks the to-do with `id` done, or not done.
    public func toggle(id: Int) {
        list.toggle(id: id)
    }

    /// Marks the to-do with `id` done (`true`) or not done: a checkbox's new value (flipping
    /// twice from two tabs at once leaves what both asked for, not a flip of a flip).
    public func setDone(id: Int, _ isDone: Bool) {
        list.setDone(id: id, isDone)
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
