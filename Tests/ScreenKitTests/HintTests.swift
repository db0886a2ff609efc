import ScreenKit
import Testing

/// Issue 43: a screen's hint in parts; a part whose keys only a terminal has (Ctrl-D on a row,
/// Ctrl-C) is left out where there is no terminal (the browser's page), and only there.
@MainActor
@Suite struct HintTests {
    static let parts = ["Enter: add", "Space: done", "Ctrl-D: delete", "Esc: back"]

    /// Every way of marking the four parts terminal-only.
    @Test(arguments: 0..<16)
    func theTerminalShowsEveryPartAndTheBrowserTheOthers(marks: Int) {
        let hints = Self.parts.enumerated().map { index, text in
            marks & (1 << index) != 0 ? Hint.terminalOnly(text) : Hint(text)
        }
        let screen = Screen("S") { Text("x") }.hint(hints[0], hints[1], hints[2], hints[3])
        let elsewhere = Self.parts.indices.filter { marks & (1 << $0) == 0 }.map { Self.parts[$0] }
        #expect(screen.hint == Self.parts.joined(separator: " • "))
        #expect(screen.hintOutsideTerminal == (elsewhere.isEmpty ? nil : elsewhere.joined(separator: " • ")))
        #expect(screen.hints.map(\.isTerminalOnly) == Self.parts.indices.map { marks & (1 << $0) != 0 })
    }

    @Test func oneLineIsShownEverywhereAndNoHintIsNone() {
        let line = Screen("S") { Text("x") }.hint("Enter: details • Esc: back")
        #expect(line.hint == "Enter: details • Esc: back")
        #expect(line.hintOutsideTerminal == "Enter: details • Esc: back")
        let parts = Screen("S") { Text("x") }.hint("Enter: open", .terminalOnly("Ctrl-C: quit"))
        #expect(parts.hint == "Enter: open • Ctrl-C: quit")
        #expect(parts.hintOutsideTerminal == "Enter: open")
        let none = Screen("S") { Text("x") }
        #expect(none.hint == nil && none.hintOutsideTerminal == nil && none.hints.isEmpty)
    }
}
