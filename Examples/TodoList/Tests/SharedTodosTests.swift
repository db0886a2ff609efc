import Foundation
import MVVM
import Signals
import SignalsTesting
import Store
import Testing
import TodoList

/// Issue 32: one list of to-dos shared by several view models (every tab of a web app).
@Suite struct SharedTodosTests {
    struct NoStore: TodoStore {
        func save(_ todos: [Todo]) async throws {}
    }

    /// What one tab does, every other tab shows, with nothing to refresh.
    @MainActor @Test func twoViewModelsOfOneListSeeEachOthersChanges() throws {
        let list = SharedTodos()
        let first = TodoListViewModel(store: NoStore(), list: list)
        let second = TodoListViewModel(store: NoStore(), list: list)
        first.newTitle.value = "Buy milk"
        first.add.execute()
        #expect(second.todos.value.map(\.title) == ["Buy milk"])
        #expect(second.remainingText.value == "1 item left")
        let id = try #require(second.todos.value.first?.id)
        second.setDone(id: id, true)
        #expect(first.todos.value.first?.isDone == true)
        #expect(first.remainingText.value == "0 items left")
        // Each keeps its own field, filter and search.
        second.filter.value = .active
        #expect(first.visible.value.count == 1 && second.visible.value.isEmpty)
        first.remove(id: id)
        #expect(second.todos.value.isEmpty)
    }

    /// Generated interleavings: threads add, flip and remove at once; no change is lost, ids
    /// never repeat, and every observer ends on the list's last value.
    @Test func concurrentChangesFromManyThreadsLoseNothing() async {
        for round in 0..<20 {
            let list = SharedTodos()
            let seen = Locked<[Todo]>([])
            let subscription = list.todos.signal.sink(value: { todos in seen.withLock { $0 = todos } })
            let threads = 4, adds = 50
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<threads {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        for number in 0..<adds {
                            guard let todo = list.add(title: "\(round)-\(thread)-\(number)").currentValue else { continue }
                            if Bool.random(using: &generator) { list.toggle(id: todo.id) }
                            if Int.random(in: 0..<4, using: &generator) == 0 { list.setDone(id: todo.id, false) }
                        }
                    }
                }
            }
            let todos = list.todos.value
            #expect(todos.count == threads * adds)
            #expect(Set(todos.map(\.id)).count == todos.count)
            #expect(Set(todos.map(\.title)).count == todos.count)
            #expect(seen.value == todos)
            subscription.dispose()
        }
    }

    /// Issue 57: an id is never given twice, even once every to-do with a higher one was deleted
    /// (a page keys its rows by id): generated adds and deletes, in memory and in SQLite, each
    /// add's id above every id given before it.
    @Test func idsAreNeverGivenTwice() async throws {
        var lists: [(String, () async throws -> SharedTodos)] = [("memory", { SharedTodos() })]
        #if SQLite
        lists.append(("SQLite", { SharedTodos(store: try await Store.sqliteInMemory(migrations: TodoDatabase.migrations)) }))
        #endif
        for (name, make) in lists {
            for seed in UInt64(1)...6 {
                let list = try await make()
                // The same steps for the same seed (a linear congruential generator), so a failing
                // case can be run again.
                var state = seed
                func next() -> UInt64 {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return state >> 33
                }
                var given: [Int] = []
                for step in 0..<24 {
                    let todos = list.todos.value
                    if !todos.isEmpty, next() % 3 == 0 {
                        // The newest to-do (the one whose id a "highest plus one" would give again), or any.
                        let id = next() % 2 == 0 ? todos.map(\.id).max()! : todos[Int(next() % UInt64(todos.count))].id
                        list.remove(id: id)
                        #expect(await Self.eventually { !list.todos.value.contains { $0.id == id } })
                    } else {
                        let todo = try #require(try await list.add(title: "\(seed)-\(step)").firstValue())
                        #expect(todo.id > (given.max() ?? 0), "\(name), seed \(seed): id \(todo.id) after \(given)")
                        given.append(todo.id)
                        #expect(await Self.eventually { list.todos.value.contains(todo) })
                    }
                }
                // Every to-do deleted: the next still gets a new id.
                for todo in list.todos.value { list.remove(id: todo.id) }
                #expect(await Self.eventually { list.todos.value.isEmpty })
                let last = try #require(try await list.add(title: "after all were deleted").firstValue())
                #expect(last.id > (given.max() ?? 0), "\(name), seed \(seed): id \(last.id) after \(given)")
            }
        }
    }

    #if SQLite
    /// Issue 57: a list kept by the first schema (ids given again) is moved to the one that never
    /// gives an id twice, with its rows; the counter starts past every id a saved list names.
    @Test func aListOfTheFirstSchemaKeepsItsRowsAndGivesNoIdTwice() async throws {
        let path = NSTemporaryDirectory() + "todos-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let old = try await Store.sqlite(path: path, migrations: [TodoDatabase.migrations[0]], watchInterval: nil)
        try await old.write { db throws(StoreError) in
            try await db.execute("INSERT INTO todos (title, done) VALUES ('Buy milk', 1), ('Call mum', 0), ('Walk the dog', 0)")
            try await db.execute("INSERT INTO saved_todos (id, title, done) VALUES (7, 'Saved long ago', 0)")
        }
        await old.close()
        let store = try await Store.sqlite(path: path, migrations: TodoDatabase.migrations, watchInterval: nil)
        #expect(try await store.fetch(TodoDatabase.all) == [
            Todo(id: 1, title: "Buy milk", isDone: true), Todo(id: 2, title: "Call mum"), Todo(id: 3, title: "Walk the dog"),
        ])
        let list = SharedTodos(store: store)
        list.remove(id: 3)
        let next = try #require(try await list.add(title: "Feed the cat").firstValue())
        #expect(next.id == 8)
        await store.close()
    }

    /// Two lists on one SQLite file (two server instances): what one changes, the other shows
    /// within its next look at the file; ids come from the database, so they never repeat.
    @Test func twoListsOnOneDatabaseFollowEachOther() async throws {
        let path = NSTemporaryDirectory() + "todos-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = SharedTodos(store: try await Store.sqlite(path: path, migrations: TodoDatabase.migrations, watchInterval: .milliseconds(20)))
        let second = SharedTodos(store: try await Store.sqlite(path: path, migrations: TodoDatabase.migrations, watchInterval: .milliseconds(20)))
        let milk = try await first.add(title: "Buy milk").firstValue()!
        let mum = try await second.add(title: "Call mum").firstValue()!
        #expect(mum.id == milk.id + 1)
        second.setDone(id: milk.id, true)
        #expect(await Self.eventually { first.todos.value.map(\.title) == ["Buy milk", "Call mum"] && first.todos.value[0].isDone })
        // Changes asked one after another from synchronous code keep their order: the flip
        // lands before the delete, not after it.
        first.toggle(id: mum.id)
        first.remove(id: mum.id)
        #expect(await Self.eventually { second.todos.value.map(\.title) == ["Buy milk"] })
    }

    /// A change the database refuses is reported on `problems` and changes nothing; an add that
    /// fails keeps the title in the field and says why.
    @MainActor @Test func aRefusedChangeIsReportedAndTheTitleKept() async throws {
        let store = try await Store.sqliteInMemory(migrations: TodoDatabase.migrations + [
            // A rule of the database the app does not know: no title may say "forbidden".
            Migration("test-forbidden", ["CREATE TRIGGER no_forbidden BEFORE INSERT ON todos WHEN NEW.title = 'forbidden' BEGIN SELECT RAISE(ABORT, 'forbidden title'); END"]),
        ])
        let list = SharedTodos(store: store)
        let viewModel = TodoListViewModel(store: NoStore(), list: list)
        let errors = Recorder<StoreError, Never>()
        errors.subscribe(to: viewModel.add.errors)
        viewModel.newTitle.value = "forbidden"
        viewModel.add.execute()
        #expect(await Self.eventually { !errors.recordedValues.isEmpty })
        #expect(viewModel.newTitle.value == "forbidden")
        #expect(errors.recordedValues.first?.message.contains("forbidden title") == true)
        viewModel.newTitle.value = "allowed"
        viewModel.add.execute()
        #expect(await Self.eventually { viewModel.todos.value.map(\.title) == ["allowed"] })
        #expect(viewModel.newTitle.value == "")
        await store.close()
        // A closed database refuses a delete, and says so.
        let problems = Recorder<StoreError, Never>()
        problems.subscribe(to: viewModel.problems)
        viewModel.remove(id: viewModel.todos.value[0].id)
        #expect(await Self.eventually { problems.recordedValues == [.closed] })
        #expect(viewModel.todos.value.map(\.title) == ["allowed"])
    }

    /// Issue 57: to-dos entered back to back, each Enter while the add before it is still being
    /// stored, are all added, apart, in the order entered; the field is empty after each
    /// Enter. Generated: several rounds of random titles, on SQLite (each add a transaction).
    @MainActor @Test(arguments: 0..<4) func toDosEnteredBackToBackAreAllAddedInOrder(seed: Int) async throws {
        let store = try await Store.sqliteInMemory(migrations: TodoDatabase.migrations)
        let viewModel = TodoListViewModel(store: NoStore(), list: SharedTodos(store: store))
        var random = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        var entered: [String] = []
        for round in 0..<(3 + seed * 3) {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let title = "item \(round) " + String(repeating: "x", count: Int(random >> 61))
            viewModel.newTitle.value = title
            #expect(viewModel.add.isEnabled.value, "an add while another is stored is taken")
            viewModel.add.execute()
            #expect(viewModel.newTitle.value == "", "the field is empty at once")
            entered.append(Self.trimmed(title))
        }
        let all = entered
        #expect(await Self.eventually { viewModel.todos.value.map(\.title) == all })
        #expect(!viewModel.add.isExecuting.value)
        await store.close()
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// The JSON list an earlier version kept (`--todo-file`) is imported into an empty database
    /// once; a database with to-dos keeps its own; a file that is not a list says so.
    @Test func aJSONListIsImportedOnceIntoAnEmptyDatabase() async throws {
        let folder = NSTemporaryDirectory() + "todo-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "/todos.json"
        try Data(#"{"version":7,"todos":[{"id":3,"title":"Buy milk","done":true},{"id":9,"title":"Call mum","done":false}],"saved":[{"id":3,"title":"Buy milk","done":false}]}"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        let store = try await Store.sqlite(path: folder + "/todos.sqlite", migrations: TodoDatabase.migrations, watchInterval: nil)
        #expect(try await TodoDatabase.importJSON(at: json, into: store) == 2)
        #expect(try await store.fetch(TodoDatabase.all) == [Todo(id: 3, title: "Buy milk", isDone: true), Todo(id: 9, title: "Call mum")])
        #expect(try await store.fetch(TodoDatabase.saved) == [Todo(id: 3, title: "Buy milk")])
        #expect(try await TodoDatabase.importJSON(at: json, into: store) == 0)
        #expect(try await store.fetch(TodoDatabase.all).count == 2)
        // The next id follows the imported ones.
        let list = SharedTodos(store: store)
        #expect(try await list.add(title: "Walk the dog").firstValue()!.id == 10)
        try Data("not a list".utf8).write(to: URL(fileURLWithPath: json))
        await #expect(throws: TodoDatabase.ImportError.self) { _ = try await TodoDatabase.importJSON(at: json, into: store) }
        await store.close()
    }

    /// Plain mode's look at a list (`showcase todo --plain`): what the database has, in memory;
    /// a file that does not exist is an empty list and is not created; a file that is not a
    /// database is an error that says which file and why, not the store's words for a screen.
    @Test func aSnapshotReadsTheListAndCreatesNoFile() async throws {
        let folder = NSTemporaryDirectory() + "todo-snapshot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/todos.sqlite"
        #expect(try await TodoDatabase.snapshot(path).todos.value.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
        let list = try await TodoDatabase.openList(path) { _ in }
        _ = try await list.add(title: "Buy milk").firstValue()
        list.markSaved([Todo(id: 1, title: "Buy milk")])
        _ = try await list.add(title: "Call mum").firstValue()
        let snapshot = try await TodoDatabase.snapshot("sqlite:" + path)
        #expect(snapshot.todos.value.map(\.title) == ["Buy milk", "Call mum"])
        #expect(await Self.eventually { snapshot.savedTodos.value.map(\.title) == ["Buy milk"] })
        // In memory: a change to the snapshot is not written back.
        _ = snapshot.add(title: "Not saved").currentValue
        #expect(try await TodoDatabase.snapshot(path).todos.value.count == 2)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let error = await #expect(throws: TodoDatabase.OpenError.self) { _ = try await TodoDatabase.snapshot(folder + "/notes.txt") }
        #expect(error?.description == folder + "/notes.txt: file is not a database")
    }

    #endif

    static func eventually(_ seconds: Double = 10, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}

extension Signal {
    /// The value a signal sends while it is subscribed (an in-memory list's add sends it at once).
    var currentValue: Value? {
        let value = Locked<Value?>(nil)
        subscribe(Observer(value: { sent in value.withLock { $0 = sent } })).dispose()
        return value.value
    }
}
