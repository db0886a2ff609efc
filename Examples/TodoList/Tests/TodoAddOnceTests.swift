import Foundation
import PostgresTestSupport
import Signals
import Store
import Testing
@testable import TodoList

/// Issue 60: an add tried again after "it may have been saved" adds one to-do — the store's
/// line of the Must show ("an add retried after a timeout exists once") in the to-do list itself.
@Suite struct TodoAddOnceTests {
    #if SQLite
    /// The same key twice is one to-do, answered both times; another key is another add; a key
    /// another list used is refused, and adds nothing.
    @Test func anAddsKeyAddsOneToDo() async throws {
        let store = try await Store.sqliteInMemory(migrations: TodoDatabase.migrations)
        let list = SharedTodos(store: store, owner: 1)
        let first = try #require(try await list.add(title: "Milk", key: "k1").firstValue())
        let again = try #require(try await list.add(title: "Milk", key: "k1").firstValue())
        #expect(again == first)
        let other = try #require(try await list.add(title: "Milk", key: "k2").firstValue())
        #expect(other.id != first.id, "another key is another add")
        let unkeyed = try #require(try await list.add(title: "Milk").firstValue())
        #expect(unkeyed.id != other.id)
        await #expect(throws: StoreError.self) { try await SharedTodos(store: store, owner: 2).add(title: "Eggs", key: "k1").firstValue() }
        let rows = Query<Int>("SELECT count(*) AS n FROM todos", reads: ["todos"]) { rows throws(StoreError) in try rows[0].int("n") }
        #expect(try await store.fetch(rows) == 3)
        await store.close()
    }
    #endif

    #if PostgreSQL
    /// On PostgreSQL, an add whose commit (3 s) outlasts the store's timeout (1 s): the screen says it may
    /// have been saved and gives the title back; Add pressed again adds nothing more — the list
    /// shows the to-do once, in both view models.
    @Test(.enabled(if: PostgresCluster.available || PostgresCluster.required)) func anAddTriedAgainAfterMaybeSavedExistsOnce() async throws {
        let cluster = try await PostgresCluster.made()
        // Each to-do titled "slow…" takes 3 s to commit (a deferred trigger sleeps in COMMIT).
        let slow = Migration("slow-commits", sqlite: [], postgres: [
            "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$",
            "CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON todos DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.title LIKE 'slow%') EXECUTE FUNCTION slow_commit()",
        ])
        let store = try await Store.postgres(url: cluster.url, migrations: TodoDatabase.migrations + [slow], requestTimeout: .seconds(1))   // (the add tried again must answer within it, on a loaded CI too)
        let list = SharedTodos(store: store)
        let viewModel = TodoListViewModel(store: InMemoryTodoStore(), list: list)
        let errors = Locked<[StoreError]>([])
        let watching = viewModel.add.errors.sink(value: { error in errors.withLock { $0.append(error) } })
        viewModel.newTitle.value = "slow milk"
        _ = viewModel.add.execute()
        #expect(await SharedTodosTests.eventually { !errors.value.isEmpty })
        guard case .maybeSaved = errors.value.first else {
            Issue.record("the first add: \(errors.value)")
            return
        }
        #expect(viewModel.newTitle.value == "slow milk", "the title is given back")
        try await Task.sleep(for: .seconds(4))                 // the first commit lands meanwhile
        _ = viewModel.add.execute()
        #expect(await SharedTodosTests.eventually(15) { list.todos.value.map(\.title) == ["slow milk"] && !viewModel.add.isExecuting.value })
        #expect(errors.value.count == 1, "the add tried again was answered with the to-do added the first time: \(errors.value)")
        try await Task.sleep(for: .seconds(4))                 // (an insert of its own would have committed by now)
        let rows = Query<Int>("SELECT count(*) AS n FROM todos", reads: ["todos"]) { rows throws(StoreError) in try rows[0].int("n") }
        #expect(try await store.fetch(rows) == 1, "the add tried again is the add made the first time")
        // A new add of the same title is a new to-do.
        viewModel.newTitle.value = "slow milk"
        _ = viewModel.add.execute()
        #expect(await SharedTodosTests.eventually(15) { list.todos.value.count == 2 || errors.value.count > 1 })
        watching.dispose()
        await store.close()
    }
    #endif

}
