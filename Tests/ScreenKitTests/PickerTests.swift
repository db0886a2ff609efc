import MVVM
import ScreenKit
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: a picker of one option among many (`Choice(…, style: .menu)`). The terminal at
/// 40×12: Enter opens a list under it, ↑ ↓ move (stopping at both ends; a list longer than the
/// picker shows scrolls), Enter chooses and closes, Esc closes and keeps the choice, Tab away
/// closes. The browser: a `<select>` named by its label; a value the view model sets is sent to
/// the page; a value that is no option's is refused and the page shown the server's.
@MainActor
@Suite struct PickerTests {
    nonisolated static let options = ["Trivial", "Minor", "Normal", "Major", "Critical", "Blocker", "Someday"]

    final class Issue: Sendable {
        let priority = MutableProperty(2)
        let title = MutableProperty("")
        var screen: ScreenKit.Screen {
            ScreenKit.Screen("New issue") {
                Choice("Priority", options: PickerTests.options, selection: priority, style: .menu)
                ScreenKit.TextField("Title", text: title)
            }
        }
    }

    @Test func theTerminalOpensMovesChoosesAndCloses() throws {
        let issue = Issue()
        let harness = TerminalHarness(issue.screen)
        let (stack, terminal, screen, app) = (harness.stack, harness.terminal, harness.screen, harness.app)
        func find(_ view: TerminalUI.View) -> TerminalUI.Picker? {
            (view as? TerminalUI.Picker) ?? view.children.lazy.compactMap(find).first
        }
        let picker = try #require(find(stack))
        screen.focus(picker)
        app.drawNow()
        #expect(terminal.text.contains("Priority: [ Normal ▾ ]") && !terminal.text.contains("Blocker"), "closed: \(terminal.text)")
        app.handle([.enter])
        app.drawNow()
        #expect(picker.isOpen)
        let shown = PickerTests.options.filter { terminal.text.contains($0) }
        #expect(shown.count == TerminalUI.Picker.shownRows, "a window of the options: \(terminal.text)")
        app.handle(Array(repeating: .down, count: 10))          // past the end: stops at the last
        app.drawNow()
        #expect(terminal.text.contains("Someday") && !terminal.text.contains("Minor"), "scrolled to the end: \(terminal.text)")
        app.handle([.enter])
        #expect(issue.priority.value == 6, "the last option chosen, not past it")
        app.handle([.enter, .up, .escape])
        app.drawNow()
        #expect(!picker.isOpen && issue.priority.value == 6, "Esc keeps the choice")
        #expect(stack.pages.count == 1, "Esc closed the list, it did not go back")
        app.handle([.enter] + Array(repeating: .up, count: 10) + [.down, .enter])
        app.drawNow()
        #expect(!picker.isOpen && issue.priority.value == 1 && terminal.text.contains("[ Minor ▾ ]"), "\(terminal.text)")
        app.handle([.enter])
        app.drawNow()
        #expect(terminal.text.contains("Trivial"), "open: \(terminal.text)")
        app.handle([.tab])
        app.drawNow()
        #expect(!terminal.text.contains("Trivial"), "Tab away closes the list: \(terminal.text)")
        app.handle([.backTab])
        app.drawNow()
        #expect(screen.focused === picker && !picker.isOpen && !terminal.text.contains("Trivial"), "back on the picker, its list stays closed: \(terminal.text)")
        issue.priority.value = 5
        app.drawNow()
        #expect(terminal.text.contains("[ Blocker ▾ ]"), "the view model's choice shows: \(terminal.text)")
        #expect(PlainText.render(issue.screen).contains("Priority: [Blocker ▾]"))
    }

    @Test func theBrowserSelectFollowsBothWaysAndRefusesWhatIsNoOption() throws {
        let issue = Issue()
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: issue.screen).content
        document.root.setChildren([content])
        let select = try #require(FormTests.all(content) { $0.tag == "select" }.first)
        #expect(select.attribute("aria-label") == "Priority" && select.attribute("data-mvvm-on") == "change")
        let html = document.render().html
        #expect(html.contains(#"<option id=""#) && html.contains(#"selected value="2">Normal</option>"#), "\(html)")
        document.flush()
        var n = 0
        func change(_ value: String) throws {
            n += 1
            try document.handle(ClientMessage.parse(#"{"t":"g","id":"\#(select.id)","v":"\#(value)","n":\#(n)}"#))
        }
        try change("4")
        #expect(issue.priority.value == 4 && document.pendingPatches.isEmpty, "the page shows it already: \(document.pendingPatches)")
        for forged in ["7", "-1", "x", ""] {
            try change(forged)
            #expect(issue.priority.value == 4, "\(forged.debugDescription) is no option")
            #expect(document.pendingPatches.contains(.value(select.id, "4")), "the page is shown the server's choice: \(document.pendingPatches)")
            document.flush()
        }
        issue.priority.value = 0
        #expect(document.pendingPatches.contains(.value(select.id, "0")))
    }
}
