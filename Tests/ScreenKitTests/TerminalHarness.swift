import ScreenKit
import TerminalUI

/// A described screen drawn by the terminal in memory, at 40×12 unless told (the issues' smallest
/// window), given keys as a person types them.
@MainActor struct TerminalHarness {
    let stack = TerminalUI.NavigationStack()
    let terminal: InMemoryTerminal
    let screen: TerminalScreen
    let app: TerminalApp

    init(_ described: ScreenKit.Screen, size: Size = Size(width: 40, height: 12)) {
        stack.push(TerminalUI.ScreenRenderer.page(for: described))
        terminal = InMemoryTerminal(size: size)
        screen = TerminalScreen(stack)
        app = TerminalApp(screen: screen, device: terminal)
        app.drawNow()
    }

    /// Every widget of type `Widget` on the page, in order.
    func all<Widget: TerminalUI.View>(_ type: Widget.Type = Widget.self) -> [Widget] {
        func walk(_ view: TerminalUI.View) -> [Widget] {
            ((view as? Widget).map { [$0] } ?? []) + view.children.flatMap(walk)
        }
        return walk(stack)
    }
}
