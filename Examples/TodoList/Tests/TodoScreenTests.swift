import MVVM
import ScreenKit
import ScreenTesting
import Signals
import Testing
import TodoList

/// Issue 25: the to-do list's screen, described once, driven headless as a person would.
@MainActor @Suite struct TodoScreenTests {
    func tester() -> (ScreenTester, Navigator, TodoListViewModelTests.Store) {
        let store = TodoListViewModelTests.Store()
        let navigator = Navigator()
        let registry = ScreenRegistry<Screen>()
        TodoScreens.register(in: registry)
        navigator.push(TodoListViewModel(store: store))
        return (ScreenTester(navigator: navigator, registry: registry), navigator, store)
    }

    /// Typing and Add (or Enter) add a to-do; its checkbox (or choosing the row) marks it done;
    /// the filter buttons and the search pick what shows; Delete (Ctrl-D on the row a terminal
    /// highlights) deletes it; the count follows.
    @Test func addCheckOffFilterSearchAndDelete() throws {
        let (tester, navigator, _) = tester()
        defer { navigator.close() }
        #expect(tester.contains("Nothing to do yet."))
        #expect(throws: ScreenDriverError.disabled("Add")) { try tester.press("Add") }
        try tester.type("Buy milk", into: "New to-do")
        try tester.press("Add")
        try tester.type("Call mum", into: "New to-do")
        try tester.submit("New to-do")
        #expect(try tester.rows().map(\.title) == ["Buy milk", "Call mum"])
        #expect(try tester.rows().map(\.isOn) == [false, false])
        #expect(tester.contains("- [ ] Buy milk  [Delete]"))
        #expect(tester.contains("2 items left"))
        try tester.toggle(row: "Buy milk")
        #expect(try tester.rows().map(\.isOn) == [true, false])
        #expect(tester.contains("- [x] Buy milk  [Delete]"))
        #expect(tester.contains("1 item left"))
        try tester.select("Buy milk")
        #expect(try tester.rows().map(\.isOn) == [false, false])
        try tester.select("Buy milk")
        try tester.press("Done")
        #expect(try tester.rows().map(\.title) == ["Buy milk"])
        #expect(throws: ScreenDriverError.disabled("Done")) { try tester.press("Done") }
        try tester.press("All")
        try tester.type("mum", into: "Search")
        #expect(try tester.rows().map(\.title) == ["Call mum"])
        try tester.type("", into: "Search")
        try tester.press(key: .control("d"), onRow: "Call mum")
        #expect(try tester.rows().map(\.title) == ["Buy milk"])
        #expect(tester.contains("0 items left"))
        try tester.press("Delete", inRow: "Buy milk")
        #expect(tester.contains("Nothing to do yet."))
    }

    /// Save is enabled by changes, saves them to the store, and a failed save is an alert.
    @Test func saveStoresTheListAndAFailureIsAnAlert() async throws {
        let (tester, navigator, store) = tester()
        defer { navigator.close() }
        #expect(throws: ScreenDriverError.disabled("Save")) { try tester.press("Save") }
        try tester.type("Buy milk", into: "New to-do")
        try tester.press("Add")
        try tester.press("Save")
        for _ in 0..<200 where store.saved.value.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(store.saved.value.last?.map(\.title) == ["Buy milk"])
        store.failure.withLock { $0 = TodoListViewModelTests.Store.Offline() }
        try tester.type("Call mum", into: "New to-do")
        try tester.press("Add")
        try tester.press("Save")
        for _ in 0..<200 where tester.alert == nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(tester.alert?.title == "Could not save")
        try tester.press("OK")
        #expect(tester.alert == nil)
    }
}
