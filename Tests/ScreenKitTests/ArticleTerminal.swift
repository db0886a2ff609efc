import MVVM
import Testing
import TerminalUI

// The article's terminal block, and a check that it draws the screen.

@MainActor
func counterInTerminal(device: any TerminalDevice) -> TerminalApp {
    let navigator = Navigator(root: CounterViewModel())
    let registry = ScreenRegistry<NavigationStack.Page>()
    registry.register(CounterViewModel.self, described: counterScreen)
    let stack = NavigationStack()
    stack.bind(to: navigator, registry: registry)
    return TerminalApp(screen: TerminalScreen(stack), device: device)
}

@MainActor
@Suite struct ArticleTerminalTests {
    @Test func theCounterRunsInATerminal() {
        let terminal = InMemoryTerminal(size: Size(width: 60, height: 16))
        let app = counterInTerminal(device: terminal)
        app.drawNow()
        #expect(terminal.line(0).hasPrefix("Counter"))
        #expect(terminal.text.contains("Name"))
        #expect(terminal.text.contains("Hello!"))
        #expect(terminal.text.contains("Pressed 0 times"))
        app.handle("Ada".map { Key.character($0) })   // the field has the focus
        app.handle([.tab, .enter])                    // Tab to the button, Enter presses it
        app.drawNow()
        #expect(terminal.text.contains("Hello, Ada!"))
        #expect(terminal.text.contains("Pressed 1 times"))
    }
}
