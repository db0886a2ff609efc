import Signals
import Store

// Shared state (issues 32, 42): one list of to-dos that every view model of it sees live, each
// tab of a web app, each window; kept in this process's memory, or in a database (``Store``),
// where every process serving the list sees each change.

/// The to-dos several view models share, and what the store last saved of them.
///
/// **In memory** (`SharedTodos()`): a change is made at once, under the list's own lock, so two
/// changes from two threads (two sessions) never lose one another; no code of yours runs under
/// that lock (observers are told after it is released).
///
/// **In a database** (`SharedTodos(store:)`): the list is a query the store observes
/// (``TodoDatabase/all``), and each change is a transaction, made in the order the calls were
/// made; every view model of every process on the same database sees it when it commits. A
/// change the database refuses, or cannot take because it is away, changes nothing and is
/// reported on ``problems`` (the screen shows it); an add returns its error to the caller, so
/// the title stays in the field.
public final class SharedTodos: Sendable {
    private enum Backing: Sendable {
        case memory(MutableProperty<Lists>)
        case store(Store, owner: Int64)
    }

    private struct Lists: Sendable, Equatable {
        var todos: [Todo]
        var saved: [Todo] = []
        /// The highest id given so far: an id is never given again, even once its to-do is
        /// deleted (a page keys its rows by id; issue 57).
        var lastID = 0
    }

    private let backing: Backing
    private let problemsSubject = PublishSubject<StoreError, Never>()

    /// The to-dos, in the order they were added.
    public let todos: Property<[Todo]>
    /// The to-dos as the store last saved them (none before the first save).
    public let savedTodos: Property<[Todo]>
    /// Whether the list's database answers (always, for a list in memory).
    public let status: Property<StoreStatus>
    /// How many to-dos are not done. Worked out once per change for every view model of the list
    /// (a change a thousand tabs show counts the list once, not once a tab).
    public let remaining: Property<Int>
    /// ``remaining`` as the screen says it ("1 item left", "3 items left"), worked out once per
    /// change too: a thousand tabs' view models show this one text, not a text each.
    public let remainingText: Property<String>
    /// Whether the list has changes the store has not saved (worked out once per change).
    public let hasUnsavedChanges: Property<Bool>
    /// Whether the list has no to-dos (worked out once per change).
    public let isEmpty: Property<Bool>

    /// Each change that could not be made (a database that refused it or is away).
    public var problems: Signal<StoreError, Never> { problemsSubject.signal }

    /// A list kept in this process.
    public convenience init(_ todos: [Todo] = []) {
        self.init(todos, saved: [])
    }

    /// A list kept in this process, loaded from a store that last saved `saved` of it.
    public init(_ todos: [Todo], saved: [Todo]) {
        let lastID = (todos + saved).map(\.id).max() ?? 0
        let lists = MutableProperty(Lists(todos: todos, saved: saved, lastID: lastID))
        backing = .memory(lists)
        self.todos = lists.map(\.todos).removeDuplicates()
        savedTodos = lists.map(\.saved).removeDuplicates()
        status = Property(value: .available)
        (remaining, hasUnsavedChanges, isEmpty) = Self.derived(self.todos, self.savedTodos)
        remainingText = Self.text(remaining)
    }

    /// A list kept in `store`, whose schema is ``TodoDatabase/migrations``: it shows the to-dos the
    /// database has (none until the first query answers) and follows every change to them.
    public convenience init(store: Store) {
        self.init(store: store, owner: 0)
    }

    /// The list of `owner` (an account's id; 0: the list everyone shares) kept in `store`: its
    /// to-dos only, and changes only to them (a to-do id of another owner's list changes
    /// nothing). Tabs of one owner share one such list (``TodoLists``): one query per change.
    public init(store: Store, owner: Int64) {
        backing = .store(store, owner: owner)
        todos = store.property(TodoDatabase.all(owner: owner), initial: []).removeDuplicates()
        savedTodos = store.property(TodoDatabase.saved(owner: owner), initial: []).removeDuplicates()
        status = store.status
        (remaining, hasUnsavedChanges, isEmpty) = Self.derived(self.todos, self.savedTodos)
        remainingText = Self.text(remaining)
    }

    private static func text(_ remaining: Property<Int>) -> Property<String> {
        remaining.map { left in left == 1 ? "1 item left" : "\(left) items left" }
    }

    private static func derived(_ todos: Property<[Todo]>, _ saved: Property<[Todo]>) -> (Property<Int>, Property<Bool>, Property<Bool>) {
        (todos.map { $0.lazy.filter { !$0.isDone }.count }.removeDuplicates(),
         todos.combineLatest(saved) { $0 != $1 }.removeDuplicates(),
         todos.map(\.isEmpty).removeDuplicates())
    }

    /// Adds a to-do titled `title`, with an id no to-do of this list ever had (a deleted one's is
    /// not given again); its value is the to-do, or its error the reason it was not added. In
    /// memory it is added before this returns.
    ///
    /// `key` names this add (a random string the caller keeps while it may try again): the same
    /// key added again, after an error that says the add may have been saved, on this instance or
    /// another, adds nothing and answers the to-do it added the first time. In a database only
    /// (in memory an add is made at once or not at all).
    public func add(title: String, key: String? = nil) -> Signal<Todo, StoreError> {
        switch backing {
        case .memory(let lists):
            let todo = lists.modify { lists in
                lists.lastID = max(lists.lastID, lists.todos.map(\.id).max() ?? 0) + 1
                let todo = Todo(id: lists.lastID, title: title)
                lists.todos.append(todo)
                return todo
            }
            return .just(todo)
        case .store(let store, let owner):
            return store.submit { db throws(StoreError) in
                let rows = try await db.fetch(
                    "INSERT INTO todos (title, done, owner_id, add_key) VALUES (?, 0, ?, ?) ON CONFLICT (add_key) DO NOTHING RETURNING id",
                    [.text(title), .integer(owner), key.map(StoreValue.text) ?? .null]
                )
                if let row = rows.first { return Todo(id: try row.int("id"), title: title) }
                // Added before under this key: that to-do, as it is now.
                let earlier = try await db.fetch("SELECT id, title, done FROM todos WHERE add_key = ? AND owner_id = ?", [.text(key ?? ""), .integer(owner)])
                guard let row = earlier.first else { throw StoreError.constraintViolated("this add's key was used by another list") }
                return Todo(id: try row.int("id"), title: try row.text("title"), isDone: try row.bool("done"))
            }
        }
    }

    /// Marks the to-do with `id` done or not done.
    public func setDone(id: Int, _ isDone: Bool) {
        change({ lists in
            if let index = lists.todos.firstIndex(where: { $0.id == id }) { lists.todos[index].isDone = isDone }
        }, { db, owner throws(StoreError) in
            try await db.execute("UPDATE todos SET done = ? WHERE id = ? AND owner_id = ?", [StoreValue(isDone), StoreValue(id), .integer(owner)])
        })
    }

    /// Flips the to-do with `id`.
    public func toggle(id: Int) {
        change({ lists in
            if let index = lists.todos.firstIndex(where: { $0.id == id }) { lists.todos[index].isDone.toggle() }
        }, { db, owner throws(StoreError) in
            try await db.execute("UPDATE todos SET done = 1 - done WHERE id = ? AND owner_id = ?", [StoreValue(id), .integer(owner)])
        })
    }

    /// Removes the to-do with `id`.
    public func remove(id: Int) {
        change({ lists in lists.todos.removeAll { $0.id == id } }, { db, owner throws(StoreError) in
            try await db.execute("DELETE FROM todos WHERE id = ? AND owner_id = ?", [StoreValue(id), .integer(owner)])
        })
    }

    /// Records that the store saved `todos`.
    public func markSaved(_ todos: [Todo]) {
        change({ lists in lists.saved = todos }, { db, owner throws(StoreError) in
            try await db.execute("DELETE FROM saved_todos WHERE owner_id = ?", [.integer(owner)])
            for todo in todos {
                try await db.execute(
                    "INSERT INTO saved_todos (id, title, done, owner_id) VALUES (?, ?, ?, ?)",
                    [StoreValue(todo.id), StoreValue(todo.title), StoreValue(todo.isDone), .integer(owner)]
                )
            }
        })
    }

    /// Makes a change: in memory at once, or as a transaction in the order of the calls.
    private func change(_ inMemory: (inout Lists) -> Void, _ inStore: @escaping @Sendable (StoreTransaction, Int64) async throws(StoreError) -> Void) {
        switch backing {
        case .memory(let lists):
            lists.modify { inMemory(&$0) }
        case .store(let store, let owner):
            let problems = problemsSubject
            _ = store.submit { db throws(StoreError) in try await inStore(db, owner) }
                .subscribe(Observer(completion: { if let error = $0.failure { problems.send(error) } }))
        }
    }
}

/// The lists of every owner an instance shows, one per owner while a tab shows it: every tab of
/// one owner shares one ``SharedTodos`` (one query per change, however many tabs), and a list no
/// tab holds any more is let go.
public final class TodoLists: Sendable {
    private enum Backing: Sendable {
        case memory
        case store(Store)
    }

    private final class Weak: @unchecked Sendable {
        // SAFETY: read and written only under `lists`' lock.
        weak var list: SharedTodos?
        init(_ list: SharedTodos) { self.list = list }
    }

    private let backing: Backing
    private let lists = Locked<[Int64: Weak]>([:])

    /// Lists kept in `store` (its migrations include ``TodoDatabase/migrations``).
    public init(store: Store) { backing = .store(store) }

    /// Lists kept in this process's memory, one per owner.
    public init() { backing = .memory }

    /// The list of `owner` (an account's id), shared with every other tab showing it.
    public func list(of owner: Int64) -> SharedTodos {
        lists.withLock { lists in
            lists = lists.filter { $0.value.list != nil }
            if let list = lists[owner]?.list { return list }
            let list = switch backing {
            case .memory: SharedTodos()
            case .store(let store): SharedTodos(store: store, owner: owner)
            }
            lists[owner] = Weak(list)
            return list
        }
    }
}
