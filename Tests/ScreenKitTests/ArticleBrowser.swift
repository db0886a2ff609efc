import MVVM
import Testing
import WebUI

// The article's browser block, and a check that a session shows the screen.

final class CounterPage: WebSessionContent {
    let navigator = Navigator(root: CounterViewModel())
    let stack = NavigationStack()

    init(document: Document) {
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(CounterViewModel.self, described: counterScreen)
        document.root.setChildren([stack])
        stack.bind(to: navigator, registry: registry)
    }

    func close() { navigator.close() }
}

@MainActor
@Suite struct ArticleBrowserTests {
    @Test func theCounterRunsInABrowserSession() throws {
        let sessions = WebSessions { CounterPage(document: $0) }
        let session = try #require(sessions.open())
        defer { session.close() }
        let html = PageShell.html(for: session)
        #expect(html.contains("Counter"))
        #expect(html.contains("Hello!"))
        #expect(html.contains("Pressed 0 times"))
        #expect(html.contains("your name"))
        func buttons(in element: Element) -> [Button] {
            ((element as? Button).map { [$0] } ?? []) + element.children.flatMap(buttons(in:))
        }
        let button = try #require(buttons(in: session.document.root).first { $0.text == "+1" })
        button.onPress?()
        session.document.flush()
        #expect(PageShell.html(for: session).contains("Pressed 1 times"))
    }
}
