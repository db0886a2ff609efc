import Testing
@testable import TerminalUI

/// Issue 16: the main control has the focus first, typed text reaches it, Left/Right act on the
/// segments or tabs around a list the same way everywhere, and Esc on the first screen does
/// what the app says.
@MainActor @Suite struct FocusTests {
    @Test func theMainControlTakesTheFocusOnceItCanUntilTheUserMovesIt() {
        let refresh = Button("Refresh")
        let list = ListView(emptyText: "Loading…")
        list.prefersFocus = true
        let harness = Harness(Stack(.vertical, [refresh, list]))
        #expect(harness.screen.focused === refresh, "an empty list cannot take the focus yet")
        list.rows = (0..<40).map { ListView.Row("Item \($0)") }
        harness.press(.end)
        #expect(harness.screen.focused === list, "the rows came: the list has the focus")
        #expect(list.selection == 39, "End acted on the list without a Tab first")
        harness.press(.tab)
        #expect(harness.screen.focused === refresh)
        list.rows = (0..<41).map { ListView.Row("Item \($0)") }
        harness.app.drawNow()
        #expect(harness.screen.focused === refresh, "once the user moved the focus it stays")
    }

    /// Issue 43: a button that stops taking the focus while its action runs (Retry, busy) gets
    /// it back once it is enabled again, so Enter to retry presses Retry again instead of what
    /// the focus fell to (Back); not if the user moved the focus meanwhile, nor if it went.
    @Test func aButtonBusyWithItsActionGetsTheFocusBackOnceItIsDone() {
        let back = Button("Back"), retry = Button("Retry"), other = Button("Other")
        let harness = Harness(Stack(.vertical, [back, retry, other]))
        harness.press(.tab)
        #expect(harness.screen.focused === retry)
        retry.isEnabled = false
        harness.app.drawNow()
        #expect(harness.screen.focused === back, "a disabled button cannot keep the focus")
        retry.isEnabled = true
        harness.app.drawNow()
        #expect(harness.screen.focused === retry, "back on Retry once it is done")

        retry.isEnabled = false
        harness.app.drawNow()
        harness.press(.tab)
        #expect(harness.screen.focused === other)
        retry.isEnabled = true
        harness.app.drawNow()
        #expect(harness.screen.focused === other, "the user moved the focus meanwhile: it stays")

        harness.press(.tab, .tab)
        #expect(harness.screen.focused === retry)
        retry.isHidden = true
        harness.app.drawNow()
        retry.isHidden = false
        harness.app.drawNow()
        #expect(harness.screen.focused !== retry, "a button that went from the screen does not take the focus back")
    }

    /// Issue 59, found in tmux: a control that stops taking the focus where it stands (a file
    /// list whose last file the person removed; here a button disabled) leaves the focus on the
    /// control before it, not at the top of the screen; Tab and Shift-Tab go on from where it
    /// stood.
    @Test func aViewThatStopsTakingTheFocusLeavesItWhereItStood() {
        for (key, expected) in [(Key.character("x"), 1), (.backTab, 1), (.tab, 3)] {
            // The screen's main control first (a form's title field): where the focus fell
            // before, and where later keys went (found in tmux: the second key did).
            let main = TextField(placeholder: "Title"), path = TextField(placeholder: "Path"), gone = Button("Remove"), last = Button("Last")
            main.prefersFocus = true
            let views: [View] = [main, path, gone, last]
            let harness = Harness(Stack(.vertical, views))
            harness.screen.focus(gone)
            gone.isEnabled = false
            harness.press(key)
            #expect(harness.screen.focused === views[expected], "\(key) after the focused control stopped taking the focus")
            guard expected == 1 else { continue }   // (typed on a button, text goes to the main field)
            harness.press(.character("y"), .character("z"))
            #expect(harness.screen.focused === path && main.text.isEmpty, "\(key), then y z: the focus stays; the main control got \(main.text)")
            #expect(path.text == (key == .backTab ? "yz" : "xyz"), "\(path.text)")
            // Used where it fell, the focus stays there when the control that lost it takes it
            // again (a file added to the emptied list), unlike a busy button's, given back.
            gone.isEnabled = true
            harness.press(.character("!"))
            #expect(harness.screen.focused === path && path.text.hasSuffix("!"), "\(path.text)")
        }
    }

    /// Found in tmux: switching the movie list emptied it while the next list loaded, the focus
    /// fell to the tab row, and the next → switched tabs instead of lists.
    @Test func aFocusedListKeepsTheFocusWhileItsRowsReload() {
        let segments = SegmentedControl(["Now Playing", "Popular", "Top Rated"])
        let list = ListView()
        list.prefersFocus = true
        list.rows = [ListView.Row("Movie")]
        let harness = Harness(Stack(.vertical, [segments, list]))
        #expect(harness.screen.focused === list)
        list.rows = []
        harness.press(.right)
        #expect(harness.screen.focused === list)
        #expect(segments.selectedIndex == 1)
        harness.press(.right)
        #expect(segments.selectedIndex == 2)
    }

    /// Issue 31: going back puts the focus where the user was (the list row they opened), not
    /// on the screen's first field; a page never covered starts on its main control.
    @Test func goingBackPutsTheFocusWhereTheUserWas() {
        let field = TextField(placeholder: "Search")
        field.prefersFocus = true
        let list = ListView()
        list.rows = (0..<10).map { ListView.Row("Book \($0)") }
        let stack = NavigationStack(root: .init(title: "Search", view: Stack(.vertical, [field, list])))
        let harness = Harness(stack, size: Size(width: 40, height: 20))
        #expect(harness.screen.focused === field)
        harness.press(.tab, .down, .down)
        #expect(harness.screen.focused === list && list.selection == 2)
        stack.push(.init(title: "Book 2", view: Button("Borrow")))
        harness.app.drawNow()
        harness.press(.escape)
        #expect(stack.pages.count == 1)
        #expect(harness.screen.focused === list, "back on the list the user left")
        harness.press(.down)
        #expect(list.selection == 3, "keys go on acting on the list")
    }

    @Test func typedTextGoesToTheMainTextField() {
        let tabs = SegmentedControl(["Movies", "Search"])
        let field = TextField(placeholder: "Search movies")
        field.prefersFocus = true
        let button = Button("Go")
        let harness = Harness(Stack(.vertical, [tabs, field, button]))
        #expect(harness.screen.focused === field)
        harness.press(.backTab)
        #expect(harness.screen.focused === tabs)
        harness.type("storm")
        #expect(field.text == "storm")
        #expect(harness.screen.focused === field, "the field has the focus after taking the text")
        harness.press(.tab, .character(" "))
        #expect(field.text == "storm", "a space on a button presses it; it is not typed")
    }

    @Test func leftAndRightInAListActOnTheNearestSegmentsOrTabs() {
        let nowPlaying = ListView(), results = ListView()
        nowPlaying.rows = (0..<5).map { ListView.Row("Movie \($0)") }
        results.rows = (0..<5).map { ListView.Row("Result \($0)") }
        nowPlaying.prefersFocus = true
        let segments = SegmentedControl(["Now Playing", "Popular", "Top Rated"])
        let tabs = TabBar([(title: "Movies", content: Stack(.vertical, [segments, nowPlaying])),
                           (title: "Search", content: Stack(.vertical, [TextField(), results]))])
        let harness = Harness(tabs, size: Size(width: 60, height: 12))
        #expect(harness.screen.focused === nowPlaying)
        harness.press(.right, .right)
        #expect(segments.selectedIndex == 2, "→ in the list switches the segments above it")
        #expect(harness.screen.focused === nowPlaying, "and the focus stays")
        harness.press(.left)
        #expect(segments.selectedIndex == 1)
        tabs.selectedIndex = 1
        harness.app.drawNow()
        harness.screen.focus(results)
        harness.press(.left)
        #expect(tabs.selectedIndex == 0, "← in the search results switches the tabs, the nearest switcher")
        #expect(harness.screen.focused === nowPlaying, "the main control of the tab shown takes the focus")
        #expect(segments.selectedIndex == 1)
    }

    @Test func leftAndRightMoveTheFocusWhereThereIsNoSwitcher() {
        let field = TextField(), go = Button("Go")
        let harness = Harness(Stack(.horizontal, spacing: 1, [field, go]))
        harness.press(.tab)
        #expect(harness.screen.focused === go)
        harness.press(.left)
        #expect(harness.screen.focused === field)
    }

    @Test func escOnTheFirstScreenDoesWhatTheAppSays() {
        let stack = NavigationStack(root: .init(title: "Flickr Search", view: Button("Search")))
        let harness = Harness(stack)
        var escapes = 0
        harness.screen.onEscapeAtRoot = { escapes += 1 }
        stack.push(.init(title: "sunset", view: Label("Results")))
        harness.press(.escape)
        #expect(stack.pages.count == 1 && escapes == 0, "Esc goes back first")
        harness.press(.escape)
        #expect(escapes == 1, "then on the first screen it does what the app said")
        let plain = Harness(Stack(.vertical, [Button("OK")]))
        var plainEscapes = 0
        plain.screen.onEscapeAtRoot = { plainEscapes += 1 }
        plain.press(.escape)
        #expect(plainEscapes == 1, "a screen without a navigation stack is its own first screen")
    }
}
