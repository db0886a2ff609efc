import MVVM
import Testing
import TodoList
@testable import WebUI

/// Issue 32: the to-do in the browser, with a checkbox and Delete on every row, and one list
/// shared by every tab.
@MainActor
@Suite struct TodoPageTests {
    func thousand() -> SharedTodos {
        SharedTodos((1...1000).map { Todo(id: $0, title: "To-do number \($0)") })
    }

    /// The row of the to-do titled `title`, its checkbox and its Delete button.
    func row(_ title: String, in tab: Tab) throws -> (row: Element, box: Element, delete: Element) {
        let list = try #require(tab.lists.first)
        let row = try #require(list.children[1].children.first { $0.attribute("data-key") != nil && $0.html.contains(">\(title)<") })
        let box = try #require(row.children.first { $0.attribute("type") == "checkbox" })
        let delete = try #require(row.children.first { $0.tag == "button" && $0.text == "Delete" })
        return (row, box, delete)
    }

    /// What a page receives for `action`, in bytes.
    func bytes(_ tab: Tab, _ action: () throws -> Void) rethrows -> Int {
        let before = tab.receivedBytes
        try action()
        tab.sync()
        return tab.receivedBytes - before
    }

    /// Bytes per toggle in a 1,000-row list: one row's patch (and the count), for the tab
    /// that clicked and for another tab of the same list, whether the row stays (All), leaves
    /// (Active) or is deleted.
    @Test func aToggleInAThousandRowsSendsOneRowToEveryTab() throws {
        let list = thousand()
        let tab = Tab(at: "/todo", todos: list), other = Tab(at: "/todo", todos: list)
        defer { tab.session.close(); other.session.close() }
        #expect(try #require(tab.lists.first).rows.count == 1000)

        let checked = try bytes(tab) { tab.send(#"{"t":"g","id":"\#(try row("To-do number 500", in: tab).box.id)","v":"true"}"#) }
        let checkedElsewhere = bytes(other) {}
        #expect(list.todos.value[499].isDone)
        #expect(try row("To-do number 500", in: other).box.attribute("checked") != nil)
        #expect(other.model.html == other.document.bodyHTML)

        let clicked = try bytes(tab) { tab.click(try row("To-do number 501", in: tab).row) }
        #expect(list.todos.value[500].isDone)
        other.sync()

        tab.click(try #require(tab.button("Active")))
        let left = try bytes(tab) { tab.send(#"{"t":"g","id":"\#(try row("To-do number 502", in: tab).box.id)","v":"true"}"#) }
        #expect(try #require(tab.lists.first).rows.count == 997)
        let leftElsewhere = bytes(other) {}

        let deleted = try bytes(tab) { tab.click(try row("To-do number 503", in: tab).delete) }
        let deletedElsewhere = bytes(other) {}
        #expect(list.todos.value.count == 999)
        #expect(!list.todos.value.contains { $0.title == "To-do number 503" })
        #expect(try #require(other.lists.first).rows.count == 999)

        let figures = [("checkbox, All", checked), ("the same, another tab", checkedElsewhere), ("row click, All", clicked),
                       ("checkbox, Active (the row leaves)", left), ("the same, another tab (All)", leftElsewhere),
                       ("Delete", deleted), ("Delete, another tab", deletedElsewhere)]
        print("Bytes per change in a 1,000-row to-do list: " + figures.map { "\($0.0) \($0.1)" }.joined(separator: "; "))
        for (name, count) in figures { #expect(count < 1024, "\(name): \(count) bytes") }
    }

    /// Two tabs of one list: what one adds, checks and deletes, the other shows at once.
    @Test func twoTabsOfOneListStayInSync() throws {
        let list = SharedTodos()
        let first = Tab(at: "/todo", todos: list), second = Tab(at: "/todo", todos: list)
        defer { first.session.close(); second.session.close() }
        let field = try #require(first.all(TextField.self).first)
        first.type("Buy milk", into: field)
        first.click(try #require(first.button("Add")))
        second.sync()
        #expect(second.model.html.contains(">Buy milk<"))
        second.send(#"{"t":"g","id":"\#(try row("Buy milk", in: second).box.id)","v":"true"}"#)
        first.sync()
        #expect(try row("Buy milk", in: first).box.attribute("checked") != nil)
        #expect(first.model.html.contains("0 items left"))
        first.click(try row("Buy milk", in: first).delete)
        second.sync()
        #expect(second.model.html.contains("Nothing to do yet."))
        #expect(first.model.html == first.document.bodyHTML && second.model.html == second.document.bodyHTML)
    }
}
