import Signals

// Shared state (issue 32): one list of to-dos that every view model of it sees live, each tab of
// a web app, each window; and, with a backing (a file, a database), every process serving it.

/// The to-dos several view models share, and whether the store has saved them.
///
/// Its locking: the list lives in one `MutableProperty`, whose `modify` reads and writes under
/// the property's own lock, so two changes from two threads (two sessions, two windows) never
/// lose one another. No code of yours runs under that lock: the property tells its observers
/// after it is released, each view model's bindings then move to the main actor, as a view
/// layer's do. With a backing, a change is made by the backing (under its own lock, a file lock
/// across processes) and the list takes the result if it is newer than what it has.
public final class SharedTodos: Sendable {
    /// The list at one moment: every change makes a new version.
    public struct Snapshot: Sendable, Equatable {
        public var version: Int
        public var todos: [Todo]
        /// The to-dos as the store last saved them.
        public var saved: [Todo]

        public init(version: Int = 0, todos: [Todo] = [], saved: [Todo] = []) {
            self.version = version
            self.todos = todos
            self.saved = saved
        }

        /// The snapshot after `change`: one version later. A backing makes each change with it.
        public func applying(_ change: Change) -> Snapshot {
            var next = self
            change(&next)
            next.version = version + 1
            return next
        }
    }

    /// A change to the list: it may read the list as it is when the change is made. It runs
    /// under the list's lock, so it only computes (no I/O, no waiting, no call-outs).
    public typealias Change = @Sendable (inout Snapshot) -> Void

    /// Makes `change` durable where every process sees it and returns the list after it (`nil`:
    /// not applied, the list stays as it is).
    public typealias Backing = @Sendable (_ change: Change) -> Snapshot?

    private let state: MutableProperty<Snapshot>
    private let backing: Backing?

    /// The to-dos, in the order they were added.
    public let todos: Property<[Todo]>
    /// The to-dos as the store last saved them (none before the first save).
    public let savedTodos: Property<[Todo]>

    /// A list kept in this process.
    public convenience init(_ todos: [Todo] = []) {
        self.init(Snapshot(todos: todos), backing: nil)
    }

    /// A list kept by `backing` (a file every instance of a server reads), starting at `snapshot`.
    /// Changes made elsewhere arrive through ``take(_:)``.
    public init(_ snapshot: Snapshot, backing: Backing?) {
        state = MutableProperty(snapshot)
        self.backing = backing
        todos = state.map(\.todos).removeDuplicates()
        savedTodos = state.map(\.saved).removeDuplicates()
    }

    /// The list now.
    public var snapshot: Snapshot { state.value }

    /// Applies `change`, atomically with respect to every other change; returns whether it was
    /// made (a backing may refuse: its file is unwritable, say).
    @discardableResult
    public func update(_ change: @escaping Change) -> Bool {
        if let backing {
            guard let after = backing(change) else { return false }
            take(after)
        } else {
            state.modify { snapshot in snapshot = snapshot.applying(change) }
        }
        return true
    }

    /// Takes a list that changed elsewhere (another process), if it is newer than this one.
    public func take(_ snapshot: Snapshot) {
        state.modify { current in
            if snapshot.version > current.version { current = snapshot }
        }
    }

    /// Adds a to-do titled `title`, with the next free id; returns it (`nil` if the backing
    /// could not make the change).
    @discardableResult
    public func add(title: String) -> Todo? {
        let added = Locked<Todo?>(nil)
        let made = update { snapshot in
            let todo = Todo(id: (snapshot.todos.map(\.id).max() ?? 0) + 1, title: title)
            snapshot.todos.append(todo)
            added.withLock { $0 = todo }
        }
        return made ? added.value : nil
    }

    /// Marks the to-do with `id` done or not done.
    public func setDone(id: Int, _ isDone: Bool) {
        update { snapshot in
            if let index = snapshot.todos.firstIndex(where: { $0.id == id }) { snapshot.todos[index].isDone = isDone }
        }
    }

    /// Flips the to-do with `id`.
    public func toggle(id: Int) {
        update { snapshot in
            if let index = snapshot.todos.firstIndex(where: { $0.id == id }) { snapshot.todos[index].isDone.toggle() }
        }
    }

    /// Removes the to-do with `id`.
    public func remove(id: Int) {
        update { snapshot in snapshot.todos.removeAll { $0.id == id } }
    }

    /// Records that the store saved `todos`.
    public func markSaved(_ todos: [Todo]) {
        update { snapshot in snapshot.saved = todos }
    }
}
