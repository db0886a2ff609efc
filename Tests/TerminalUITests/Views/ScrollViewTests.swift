import Testing
@testable import TerminalUI

/// Issue 59: a screen taller than the window (a form at 40×12) scrolls with the focus, and one
/// that fits is drawn as before.
@MainActor @Suite struct ScrollViewTests {
    /// `count` buttons, one a row, in a scroll view with a hint under it.
    static func buttons(_ count: Int) -> (ScrollView, [Button], View) {
        let buttons = (1...count).map { Button("Item \($0)") }
        let scroll = ScrollView(Stack(.vertical, buttons))
        return (scroll, buttons, Stack(.vertical, [scroll, Label("hint")]))
    }

    /// Content of exactly the window's height does not scroll; one row more does, at the exact
    /// boundary, and the hint under it stays on screen.
    @Test func contentScrollsOnlyWhenTallerThanTheWindow() {
        let (fits, _, page) = Self.buttons(11)
        let harness = Harness(page, size: Size(width: 20, height: 12))
        #expect(!fits.isScrolling && harness.line(10).contains("Item 11") && harness.line(11) == "hint", "\(harness.text)")
        let (over, _, taller) = Self.buttons(12)
        let other = Harness(taller, size: Size(width: 20, height: 12))
        #expect(over.isScrolling && other.line(11) == "hint", "\(other.text)")
        #expect(other.line(10).hasSuffix("▼") && !other.text.contains("▲"), "\(other.text)")
    }

    /// Tab down the list: the window follows the focus (with a row of what is next under it),
    /// to the last row; Tab on wraps to the top; a stack closes its gaps before it scrolls.
    @Test func theWindowFollowsTheFocus() {
        let (scroll, buttons, page) = Self.buttons(20)
        let harness = Harness(page, size: Size(width: 20, height: 12))
        for _ in 0..<11 { harness.press(.tab) }
        #expect(harness.screen.focused === buttons[11] && scroll.offset == 2, "the focused row and one under it: \(harness.text)")
        #expect(harness.line(9).contains("Item 12") && harness.line(0).hasPrefix("[ Item 3 ]") && harness.line(0).hasSuffix("▲"), "\(harness.text)")
        for _ in 0..<8 { harness.press(.tab) }
        #expect(harness.line(10).contains("Item 20") && scroll.offset == 9, "the last row: \(harness.text)")
        harness.press(.tab)
        #expect(harness.screen.focused === buttons[0] && scroll.offset == 0 && harness.line(0).contains("Item 1 "), "wrapped to the top: \(harness.text)")
        let gaps = ScrollView(Stack(.vertical, spacing: 1, (1...6).map { Button("Gap \($0)") }))
        let spaced = Harness(Stack(.vertical, [gaps, Label("hint")]), size: Size(width: 20, height: 7))
        #expect(!gaps.isScrolling && spaced.text.contains("Gap 6"), "6 rows fit with the gaps closed: \(spaced.text)")
    }

    /// Text that takes no focus under the last control (what a form's submit did) comes into
    /// view when the focus reaches that control, and what is above the first when it goes back
    /// there; the last control stays in view when what is under it is taller than the window.
    @Test func textAroundTheControlsComesIntoViewAtEitherEnd() {
        let buttons = (1...8).map { Button("B\($0)") }
        let scroll = ScrollView(Stack(.vertical, [Label("Above"), Label("Above too")] + buttons + [Label("Outcome one"), Label("Outcome two"), Label("Outcome three")]))
        let harness = Harness(Stack(.vertical, [scroll, Label("hint")]), size: Size(width: 20, height: 8))
        harness.screen.focus(buttons[7])
        harness.app.drawNow()
        #expect(harness.text.contains("Outcome three") && harness.text.contains("B8"), "\(harness.text)")
        harness.screen.focus(buttons[0])
        harness.app.drawNow()
        #expect(harness.line(0).hasPrefix("Above") && scroll.offset == 0, "\(harness.text)")
        let long = (1...12).map { Label("Line \($0)") }
        let last = Button("Last")
        let tall = ScrollView(Stack(.vertical, [Button("First"), last] + long))
        let other = Harness(Stack(.vertical, [tall, Label("hint")]), size: Size(width: 20, height: 8))
        other.screen.focus(last)
        other.app.drawNow()
        #expect(other.text.contains("Last"), "the control in view, whatever is under it: \(other.text)")
    }

    /// A field's cursor is where its row is shown, and hidden while its row is scrolled away.
    @Test func theCursorFollowsTheWindow() {
        let field = TextField(text: "abc")
        let buttons = (1...14).map { Button("B\($0)") }
        let scroll = ScrollView(Stack(.vertical, buttons + [field]))
        let harness = Harness(Stack(.vertical, [scroll, Label("hint")]), size: Size(width: 20, height: 12))
        harness.screen.focus(field)
        harness.app.drawNow()
        #expect(scroll.offset == 4 && harness.terminal.cursor == Point(x: 3, y: 10), "\(harness.text)")
        #expect(harness.line(10).hasPrefix("abc"))
    }

    /// A button stays focused while the work it started runs (the window does not jump away
    /// from it); a disabled one that is not busy gives the focus up.
    @Test func aBusyButtonKeepsTheFocus() {
        let field = TextField(), button = Button("File")
        let harness = Harness(Stack(.vertical, [field, button]), size: Size(width: 20, height: 12))
        harness.screen.focus(button)
        button.isEnabled = false
        button.isBusy = true
        harness.app.drawNow()
        #expect(harness.screen.focused === button)
        button.isBusy = false
        harness.app.drawNow()
        #expect(harness.screen.focused === field, "disabled and not busy: the focus goes on")
    }
}
