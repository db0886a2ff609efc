import MVVM
import ScreenKit
import ScreenTesting
import Signals
import Testing
import TerminalUI
import WebUI

// Issue 32: a toggle, and rows that hold a checkbox and a button, described once and driven in
// every layer: the headless tester, plain text, the terminal (Space, Ctrl-D on the highlighted
// row) and the browser (a change on the row's checkbox, a click on its button).

/// Chores: each can be done; Remove takes one away; a setting beside them.
final class ChoresViewModel: Sendable {
    let chores = MutableProperty<[(id: Int, title: String, isDone: Bool)]>([(1, "Dishes", false), (2, "Laundry", false), (3, "Bins", true)])
    let reminders = MutableProperty(false)

    func setDone(_ id: Int, _ isDone: Bool) {
        chores.modify { chores in
            if let index = chores.firstIndex(where: { $0.id == id }) { chores[index].isDone = isDone }
        }
    }

    func remove(_ id: Int) { chores.modify { $0.removeAll { $0.id == id } } }
}

func choresScreen(_ viewModel: ChoresViewModel) -> Screen {
    Screen("Chores") {
        Toggle("Remind me", isOn: viewModel.reminders)
        List(
            "Chores",
            rows: viewModel.chores.live.map { $0.map { ListRow(id: String($0.id), title: $0.title, isOn: $0.isDone) } },
            emptyText: "All done.",
            onToggle: { id, isDone in Int(id).map { viewModel.setDone($0, isDone) } },
            rowButtons: [RowButton("Remove", shortcut: .control("d")) { id in Int(id).map(viewModel.remove) }]
        )
    }
}

@MainActor
@Suite struct RowControlTests {
    func done(_ viewModel: ChoresViewModel) -> [String] {
        viewModel.chores.value.map { ($0.isDone ? "[x] " : "[ ] ") + $0.title }
    }

    @Test func theTesterAndPlainText() throws {
        let viewModel = ChoresViewModel()
        let navigator = Navigator(root: viewModel)
        defer { navigator.close() }
        let registry = ScreenRegistry<Screen>()
        registry.register(ChoresViewModel.self, choresScreen)
        let tester = ScreenTester(navigator: navigator, registry: registry)
        #expect(tester.text == """
            Chores
            ======
            [ ] Remind me
            - [ ] Dishes  [Remove]
            - [ ] Laundry  [Remove]
            - [x] Bins  [Remove]
            """)
        try tester.toggle("Remind me")
        #expect(viewModel.reminders.value)
        try tester.toggle(row: "Laundry")
        try tester.toggle(row: "Bins")
        #expect(done(viewModel) == ["[ ] Dishes", "[x] Laundry", "[ ] Bins"])
        try tester.press("Remove", inRow: "Dishes")
        try tester.press(key: .control("d"), onRow: "Bins")
        #expect(done(viewModel) == ["[x] Laundry"])
        #expect(throws: ScreenDriverError.self) { try tester.press("Remove", inRow: "Dishes") }
        #expect(tester.text.contains("[x] Remind me"))
    }

    @Test func theTerminal() {
        let viewModel = ChoresViewModel()
        let navigator = Navigator(root: viewModel)
        defer { navigator.close() }
        let registry = ScreenRegistry<TerminalUI.NavigationStack.Page>()
        registry.register(ChoresViewModel.self, described: choresScreen)
        let stack = TerminalUI.NavigationStack()
        stack.bind(to: navigator, registry: registry)
        let terminal = InMemoryTerminal(size: Size(width: 50, height: 14))
        let app = TerminalApp(screen: TerminalScreen(stack), device: terminal)
        app.drawNow()
        #expect(terminal.text.contains("[ ] Remind me"))
        #expect(terminal.text.contains("› [ ] Dishes"))
        // The list has the focus first (no field on the screen): Space flips the highlighted
        // row, Down then Ctrl-D removes the next one.
        app.handle([.character(" ")])
        #expect(done(viewModel) == ["[x] Dishes", "[ ] Laundry", "[x] Bins"])
        app.handle([.down, .control("d")])
        #expect(done(viewModel) == ["[x] Dishes", "[x] Bins"])
        app.drawNow()
        #expect(terminal.text.contains("[x] Dishes") && !terminal.text.contains("Laundry"))
        // Shift-Tab to the toggle: Space flips it.
        app.handle([.backTab, .character(" ")])
        #expect(viewModel.reminders.value)
        app.drawNow()
        #expect(terminal.text.contains("[x] Remind me"))
    }

    @Test func theBrowser() throws {
        let viewModel = ChoresViewModel()
        let document = Document()
        document.flushesAutomatically = false
        let page = WebUI.ScreenRenderer.page(for: choresScreen(viewModel))
        document.root.setChildren([page.content])
        _ = document.render()
        let list = try #require(document.root.first(ListView.self))
        let rows = list.children[1].children
        #expect(rows.count == 3)
        func control(_ row: Int, _ tag: String) throws -> WebUI.Element {
            try #require(list.children[1].children[row].children.first { $0.tag == tag })
        }
        try document.handle(.event(id: try control(1, "input").id, .change("true"), sequence: 1))
        #expect(done(viewModel) == ["[ ] Dishes", "[x] Laundry", "[x] Bins"])
        // One attribute for that row's box, not the list.
        #expect(document.pendingPatches.filter { if case .attribute(_, "checked", _) = $0 { true } else { false } }.count == 1)
        _ = document.flush()
        try document.handle(.event(id: try control(0, "button").id, .click, sequence: 2))
        #expect(done(viewModel) == ["[x] Laundry", "[x] Bins"])
        #expect(document.pendingPatches.contains { if case .remove = $0 { true } else { false } })
        let toggle = try #require(document.root.first(WebUI.Toggle.self))
        try document.handle(.event(id: toggle.box.id, .change("true"), sequence: 3))
        #expect(viewModel.reminders.value)
    }
}
