import Testing
@testable import TerminalUI

/// Issue 17: a screen's own keys ("r: retry"): a key the focused view does not use runs the
/// command of the nearest view around it that has one; a key the focused view uses does not.
@MainActor @Suite struct KeyCommandTests {
    @Test func theNearestViewWithTheKeyRunsItsCommand() {
        var ran: [String] = []
        let list = ListView()
        list.rows = [ListView.Row("Movie")]
        let field = TextField(placeholder: "Search")
        let inner = Stack(.vertical, [list])
        inner.keyCommands = [.character("r"): { ran.append("inner r") }]
        let outer = Stack(.vertical, [inner, field])
        outer.keyCommands = [.character("r"): { ran.append("outer r") }, .control("r"): { ran.append("outer ctrl-r") }]
        let harness = Harness(outer)
        harness.screen.focus(list)
        harness.press(.character("r"))
        #expect(ran == ["inner r"], "the innermost view with the key wins")
        harness.press(.control("r"))
        #expect(ran == ["inner r", "outer ctrl-r"], "a key the inner view lacks goes further out")
        harness.screen.focus(field)
        harness.press(.character("r"))
        #expect(field.text == "r", "a key the focused view uses is not a command")
        #expect(ran.count == 2)
        harness.press(.control("r"))
        #expect(ran.last == "outer ctrl-r")
    }
}
