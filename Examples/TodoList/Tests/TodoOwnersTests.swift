import Foundation
import Signals
import SignalsTesting
import Store
import Testing
import TodoList

/// Issue 60: each person's own list. Two owners on one database never see each other's to-dos,
/// and no change by one — a forged id included — reaches the other's rows; every tab of one
/// owner on an instance shares one list (one query per change).
@Suite struct TodoOwnersTests {
    @Test func twoOwnersNeverSeeOrChangeEachOthersToDos() async throws {
        let store = try await Store.sqliteInMemory(migrations: TodoDatabase.migrations)
        let lists = TodoLists(store: store)
        let ada = lists.list(of: 1), bob = lists.list(of: 2)
        let milk = try await ada.add(title: "Ada's milk").firstValue()!
        let bread = try await bob.add(title: "Bob's bread").firstValue()!
        await store.settled()
        #expect(ada.todos.value.map(\.title) == ["Ada's milk"])
        #expect(bob.todos.value.map(\.title) == ["Bob's bread"])
        // Bob's page names Ada's to-do's id (a forged row key): nothing of Ada's changes.
        bob.setDone(id: milk.id, true)
        bob.toggle(id: milk.id)
        bob.remove(id: milk.id)
        bob.markSaved([Todo(id: milk.id, title: "stolen")])
        await store.settled()
        #expect(ada.todos.value == [Todo(id: milk.id, title: "Ada's milk")])
        #expect(ada.savedTodos.value.isEmpty)
        // Her own changes still work.
        ada.setDone(id: milk.id, true)
        bob.toggle(id: bread.id)
        await store.settled()
        #expect(ada.todos.value == [Todo(id: milk.id, title: "Ada's milk", isDone: true)])
        #expect(bob.todos.value == [Todo(id: bread.id, title: "Bob's bread", isDone: true)])
        // The shared list (no owner) is a list of its own.
        #expect(try await store.fetch(TodoDatabase.all).isEmpty)
        await store.close()
    }

    @Test func tabsOfOneOwnerShareOneListUntilNoneHoldsIt() async throws {
        let store = try await Store.sqliteInMemory(migrations: TodoDatabase.migrations)
        let lists = TodoLists(store: store)
        var first: SharedTodos? = lists.list(of: 7)
        let second = lists.list(of: 7)
        #expect(first === second)
        #expect(lists.list(of: 8) !== second)
        weak let gone = first
        first = nil
        #expect(gone != nil, "still held by the second tab")
        _ = first
        await store.close()
    }
}
