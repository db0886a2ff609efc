import MVVM
import ScreenKit
import Testing

// The plain-text block of Sources/ScreenKit/ScreenKit.docc/DescribingAScreenOnce.md, and a test
// that runs it.

@MainActor
func counterAsText(name: String) throws -> String {
    let navigator = Navigator(root: CounterViewModel())
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(CounterViewModel.self, counterScreen)
    let driver = ScreenDriver(navigator: navigator, registry: registry)
    try driver.type(name, into: "Name")
    try driver.press("+1")
    return driver.text
}

@MainActor
@Test func theArticlesScriptPrintsTheScreenItEndsOn() throws {
    #expect(try counterAsText(name: "Ada") == """
        Counter
        =======
        Name: Ada
        Hello, Ada!
        [+1]  Pressed 1 times
        """)
}
