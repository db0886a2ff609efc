import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing
import TodoList

/// Issue 32: one list of to-dos shared by several view models (every tab of a web app).
@Suite struct SharedTodosTests {
    struct Store: TodoStore {
        func save(_ todos: [Todo]) async throws {}
    }

    /// What one tab does, every other tab shows, with nothing to refresh.
    @MainActor @Test func twoViewModelsOfOneListSeeEachOthersChanges() throws {
        let list = SharedTodos()
        let first = TodoListViewModel(store: Store(), list: list)
        let second = TodoListViewModel(store: Store(), list: list)
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
                            guard let todo = list.add(title: "\(round)-\(thread)-\(number)") else { continue }
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
            #expect(list.snapshot.version >= threads * adds)
            #expect(seen.value == todos)
            subscription.dispose()
        }
    }

    /// A list with a backing takes only what the backing made, and a newer list from elsewhere.
    @Test func aBackedListTakesTheBackingsResultAndNewerListsOnly() {
        let durable = Locked(SharedTodos.Snapshot())
        let list = SharedTodos(SharedTodos.Snapshot(), backing: { change in
            durable.withLock { snapshot in
                snapshot = snapshot.applying(change)
                return snapshot
            }
        })
        list.add(title: "a")
        #expect(list.todos.value.map(\.title) == ["a"] && durable.value.version == 1)
        // Another process added "b" (version 2): it arrives, an older list does not.
        list.take(SharedTodos.Snapshot(version: 2, todos: [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")]))
        list.take(SharedTodos.Snapshot(version: 1, todos: []))
        #expect(list.todos.value.map(\.title) == ["a", "b"])
    }

    /// Two lists on one file (two server instances): what one changes, the other shows within
    /// its next read; a file that is not a list is never overwritten, and changes are refused
    /// with a reason.
    @Test func twoListsOnOneFileFollowEachOtherAndABadFileIsLeftAlone() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("todos.json").path
        let logged = Locked<[String]>([])
        let first = TodoFile.sharedList(at: path, every: .milliseconds(20), log: { line in logged.withLock { $0.append(line) } })
        let second = TodoFile.sharedList(at: path, every: .milliseconds(20))
        let milk = try #require(first.add(title: "Buy milk"))
        #expect(second.add(title: "Call mum")?.id == milk.id + 1)   // read under the lock: the next id
        second.setDone(id: milk.id, true)
        for _ in 0..<250 where first.todos.value.count < 2 || first.todos.value.first?.isDone != true {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(first.todos.value.map(\.title) == ["Buy milk", "Call mum"] && first.todos.value[0].isDone)
        // Another program writes something else there: it is kept, and changes are refused.
        try Data("not a list".utf8).write(to: URL(fileURLWithPath: path))
        #expect(first.add(title: "Walk the dog") == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a list")
        #expect(logged.value.contains { $0.contains("is not a to-do list") })
        #expect(first.todos.value.count == 2)
    }
}
