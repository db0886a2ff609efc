import MVVM
import Signals
import SignalsTesting
import Testing
@testable import TerminalUI

/// A screen on an in-memory terminal, drawn on demand.
@MainActor
final class Harness {
    let terminal: InMemoryTerminal
    let screen: TerminalScreen
    let app: TerminalApp

    init(_ content: View, size: Size = Size(width: 40, height: 12)) {
        terminal = InMemoryTerminal(size: size)
        screen = TerminalScreen(content, minimumSize: Size(width: 20, height: 5))
        app = TerminalApp(screen: screen, device: terminal)
        app.drawNow()
    }

    func press(_ keys: Key...) {
        app.handle(keys)
        app.drawNow()
    }

    func type(_ text: String) {
        app.receive(Array(text.utf8))
        app.drawNow()
    }

    var text: String { terminal.text }
    func line(_ y: Int) -> String { terminal.line(y) }
}

/// T-BEYOND3: the terminal view layer's widgets: focus, editing, lists, alerts, navigation.
@MainActor @Suite struct WidgetScreenTests {
    @Test func focusMovesWithTabShiftTabAndArrowsAndIsVisible() {
        let first = Button("One"), second = Button("Two"), third = Button("Three")
        let harness = Harness(Stack(.vertical, [first, second, third]))
        #expect(harness.screen.focused === first)
        #expect(harness.terminal.style(x: 0, y: 0).reverse, "the focused button is drawn reversed")
        harness.press(.tab)
        #expect(harness.screen.focused === second)
        #expect(harness.terminal.style(x: 0, y: 1).reverse && !harness.terminal.style(x: 0, y: 0).reverse)
        harness.press(.backTab, .backTab)
        #expect(harness.screen.focused === third, "Shift-Tab wraps around")
        harness.press(.down)
        #expect(harness.screen.focused === first, "an arrow the button does not use moves the focus")
    }

    @Test func textFieldEditingCursorPlaceholderAndSecureField() {
        let field = TextField(placeholder: "Search Flickr")
        let secret = SecureField(placeholder: "Password")
        let changes = Recorder<String, Never>()
        changes.subscribe(to: field.textChanges)
        let harness = Harness(Stack(.vertical, [field, secret]))
        #expect(harness.line(0) == "Search Flickr")
        harness.type("sunst")
        harness.press(.left, .character("e"), .end, .backspace, .home, .delete)
        #expect(field.text == "unse")
        #expect(harness.line(0) == "unse")
        #expect(harness.terminal.cursor == Point(x: 0, y: 0), "the cursor follows the field")
        harness.press(.end, .paste("t beach"))
        #expect(field.text == "unset beach")
        #expect(changes.recordedValues.last == "unset beach")
        harness.press(.tab)
        harness.type("hunter2")
        #expect(secret.text == "hunter2")
        #expect(harness.line(1) == "•••••••", "a secure field never shows the text")
        #expect(!harness.text.contains("hunter2"))
    }

    @Test func disabledButtonsAreDimAndIgnorePresses() {
        let presses = Locked(0)
        let button = Button("Go") { presses.withLock { $0 += 1 } }
        button.isEnabled = false
        let field = TextField()
        let harness = Harness(Stack(.vertical, [field, button]))
        #expect(harness.terminal.style(x: 0, y: 1).dim)
        harness.press(.tab)
        #expect(harness.screen.focused === field, "a disabled button cannot take focus")
        button.press()
        #expect(presses.value == 0)
        button.isEnabled = true
        harness.app.drawNow()
        #expect(!harness.terminal.style(x: 0, y: 1).dim)
        harness.press(.tab, .enter)
        #expect(presses.value == 1)
    }

    @Test func listScrollsAndReportsVisibleRowsAndTheEnd() {
        let list = ListView()
        list.rows = (0..<30).map { ListView.Row("Row \($0)") }
        let visible = Recorder<Range<Int>, Never>()
        visible.subscribe(to: list.visibleRows)
        let ends = Recorder<Void, Never>()
        ends.subscribe(to: list.reachedEnd)
        let selections = Recorder<Int, Never>()
        selections.subscribe(to: list.chosen)
        let harness = Harness(list, size: Size(width: 30, height: 10))
        #expect(harness.line(0) == "› Row 0")
        #expect(visible.recordedValues.last == 0..<10)
        for _ in 0..<12 { harness.press(.down) }
        #expect(list.selection == 12)
        #expect(visible.recordedValues.last == 3..<13)
        #expect(harness.text.contains("› Row 12"))
        #expect(!harness.text.contains("Row 2\n"))
        harness.press(.pageDown, .pageDown)
        #expect(list.selection == 29)
        #expect(ends.recordedValues.count == 1, "reaching the last row asks for more")
        harness.press(.enter)
        #expect(selections.recordedValues == [29])
        harness.press(.home)
        #expect(visible.recordedValues.last == 0..<10)
    }

    @Test func alertsAreModalUntilDismissed() {
        let field = TextField()
        let harness = Harness(Stack(.vertical, [field]), size: Size(width: 50, height: 12))
        let dismissed = Locked(false)
        harness.screen.present(title: "Connection Error", message: "There was a problem reaching Flickr.") { dismissed.withLock { $0 = true } }
        harness.app.drawNow()
        #expect(harness.text.contains("Connection Error"))
        #expect(harness.text.contains("There was a problem reaching Flickr."))
        #expect(harness.text.contains("[ OK ]"))
        harness.type("abc")
        #expect(field.text.isEmpty, "keys go to the alert")
        harness.press(.enter)
        #expect(dismissed.value)
        #expect(!harness.text.contains("Connection Error"))
        harness.type("abc")
        #expect(field.text == "abc")
    }

    @Test func navigationPushAndPopWithEsc() {
        let stack = NavigationStack(root: .init(title: "Flickr Search", view: Button("Search")))
        let harness = Harness(stack)
        #expect(harness.line(0) == "Flickr Search")
        stack.push(.init(title: "sunset", view: Label("Results")))
        harness.app.drawNow()
        #expect(harness.line(0) == "‹ Esc  sunset")
        #expect(harness.text.contains("Results"))
        harness.press(.escape)
        #expect(harness.line(0) == "Flickr Search")
        #expect(stack.pages.count == 1)
        harness.press(.escape)
        #expect(stack.pages.count == 1, "the first screen stays")
    }

    @Test func navigationFollowsTheViewModelsNavigator() {
        final class SearchVM: Sendable {}
        final class ResultsVM: Sendable { let query: String; init(_ query: String) { self.query = query } }
        let navigator = Navigator(root: SearchVM())
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(SearchVM.self) { _ in .init(title: "Search", view: Label("search screen")) }
        registry.register(ResultsVM.self) { .init(title: $0.query, view: Label("results")) }
        let stack = NavigationStack()
        stack.bind(to: navigator, registry: registry)
        let harness = Harness(stack)
        navigator.push(ResultsVM("snow"))
        harness.app.drawNow()
        #expect(harness.line(0) == "‹ Esc  snow")
        harness.press(.escape)
        #expect(navigator.stack.count == 1, "Esc pops the view model too")
        #expect(harness.line(0) == "Search")
    }

    /// A view model type with no screen is reported (the dialog names it and how to register
    /// it) and popped from the navigator, so the user stays on a screen that exists.
    @Test func aViewModelWithNoScreenIsReportedAndPopped() {
        final class SearchVM: Sendable {}
        final class OrphanVM: Sendable {}
        let navigator = Navigator(root: SearchVM())
        defer { navigator.close() }
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(SearchVM.self) { _ in .init(title: "Search", view: Label("search screen")) }
        let stack = NavigationStack()
        stack.bind(to: navigator, registry: registry)
        let harness = Harness(stack)
        navigator.push(OrphanVM())
        harness.app.drawNow()
        #expect(harness.text.contains("No screen"))
        #expect(harness.text.contains("OrphanVM"))
        #expect(navigator.stack.count == 1, "the orphan is popped")
        #expect(stack.pages.count == 1)
        #expect(harness.line(0) == "Search")
    }

    @Test func wideCharactersAtLineEndsAndSegments() {
        let label = Label("评分 ⭐️⭐️⭐️⭐️⭐️⭐️⭐️ 商品列表")
        let segments = SegmentedControl(["Now Playing", "Popular"])
        let harness = Harness(Stack(.vertical, [label, segments]), size: Size(width: 21, height: 6))
        // 4 + 1 + 14 + 1 columns, then the ellipsis: 21 exactly.
        #expect(harness.line(0) == "评分 ⭐️⭐️⭐️⭐️⭐️⭐️⭐️ …")
        #expect(DisplayWidth.of(harness.line(0)) <= 21)
        harness.press(.tab, .right)
        #expect(segments.selectedIndex == 1)
    }

    @Test func resizeLaysOutAgainAndTooSmallShowsAMessage() {
        let label = Label("A long line that will be cut when the window is narrow")
        let harness = Harness(Stack(.vertical, [label]), size: Size(width: 60, height: 10))
        #expect(harness.line(0) == "A long line that will be cut when the window is narrow")
        harness.terminal.resize(to: Size(width: 24, height: 8))
        harness.app.redrawAll()
        #expect(harness.line(0) == "A long line that will b…")
        harness.terminal.resize(to: Size(width: 12, height: 3))
        harness.app.redrawAll()
        let shown = (0..<3).map { harness.line($0).trimmingPrefix(while: { $0 == " " }) }
        #expect(shown == ["Too small", "need 20×5", "Ctrl-C: quit"], "a shorter message that fits the 12×3 there are")
        harness.screen.minimumSize = Size(width: 10, height: 3)
        harness.terminal.resize(to: Size(width: 60, height: 10))
        harness.app.redrawAll()
        #expect(harness.line(0).hasPrefix("A long line"))
    }

    @Test func aThousandRowListScrollsWithoutRedrawingUnchangedCells() {
        let list = ListView()
        list.rows = (0..<1_000).map { ListView.Row("Item \($0)") }
        let harness = Harness(list, size: Size(width: 40, height: 20))
        let before = harness.terminal.bytesWritten
        harness.press(.down)
        let moveSelection = harness.terminal.bytesWritten - before
        #expect(moveSelection < 200, "moving the selection redraws two rows, not the screen (\(moveSelection) bytes)")
        for _ in 0..<500 { harness.press(.down) }
        #expect(list.selection == 501)
        #expect(harness.text.contains("› Item 501"))
        let full = 40 * 20
        let perStep = (harness.terminal.bytesWritten - before) / 501
        #expect(perStep < full, "scrolling one row writes less than a full screen (\(perStep) bytes per step)")
    }
}

@MainActor @Suite struct WidgetBindingTests {
    @Test func labelSpinnerAndListFollowStreams() {
        let title = MutableProperty("Loading")
        let busy = MutableProperty(true)
        let rows = MutableProperty<[String]>([])
        let label = Label(), spinner = Spinner(label: "Searching"), list = ListView()
        title.signal.bind(to: label, \.text)
        busy.signal.bind(to: spinner, \.isAnimating)
        rows.signal.map { $0.map { ListView.Row($0) } }.bind(to: list, \.rows)
        let harness = Harness(Stack(.vertical, [label, spinner, list]))
        #expect(harness.line(0) == "Loading")
        #expect(harness.line(1).hasSuffix("Searching"))
        title.value = "Results"
        busy.value = false
        rows.value = ["a", "b"]
        harness.app.drawNow()
        #expect(harness.line(0) == "Results")
        #expect(harness.line(1) == "")
        #expect(harness.text.contains("› a"))
    }

    @Test func textFieldBindsBothWays() {
        let query = MutableProperty("cat")
        let field = TextField()
        field.bind(to: query)
        let harness = Harness(field)
        #expect(harness.line(0) == "cat")
        harness.type("s")
        #expect(query.value == "cats")
        query.value = "dog"
        harness.app.drawNow()
        #expect(field.text == "dog")
    }

    @Test func buttonFollowsAnAction() {
        let scheduler = TestScheduler()
        let valid = MutableProperty(false)
        let runs = Locked(0)
        let action = Action<Void, Int, Never>(enabledIf: valid.readOnly) { _ in
            runs.withLock { $0 += 1 }
            return Signal.just(1).delay(for: .seconds(1), on: scheduler)
        }
        let button = Button("Go")
        button.bind(to: action)
        let harness = Harness(Stack(.vertical, [TextField(), button]))
        #expect(!button.isEnabled)
        valid.value = true
        #expect(button.isEnabled)
        harness.press(.tab, .enter)
        #expect(runs.value == 1)
        #expect(button.isBusy)
        #expect(!button.isEnabled, "disabled while the action runs")
        harness.app.drawNow()
        #expect(harness.text.contains("[ Go … ]"))
        scheduler.run()
        #expect(!button.isBusy && button.isEnabled)
    }

    @Test func bindingsEndWithTheWidget() {
        let title = PublishSubject<String, Never>()
        var label: Label? = Label()
        weak let weakLabel = label
        title.signal.bind(to: label!, \.text)
        #expect(title.subscriberCount == 1)
        label = nil
        #expect(weakLabel == nil, "a binding does not keep the widget alive")
        #expect(title.subscriberCount == 0, "and ends with it")
    }

    @Test func aViewsBagEndsItsSubscriptionsWithTheView() {
        let taps = PublishSubject<Int, Never>()
        let seen = Recorder<Int, Never>()
        var list: ListView? = ListView()
        taps.signal.subscribe(seen.observer).disposed(by: list!.bag)
        taps.send(1)
        list = nil
        taps.send(2)
        #expect(seen.recordedValues == [1])
        #expect(taps.subscriberCount == 0, "the view's bag went with the view")
    }
}

@MainActor @Suite struct TerminalDeviceTests {
    @Test func rawModeAndRestoreAreBalanced() async throws {
        let terminal = InMemoryTerminal(size: Size(width: 30, height: 8))
        let app = TerminalApp(screen: TerminalScreen(Label("hi"), minimumSize: Size(width: 10, height: 3)), device: terminal)
        let running = Task { try await app.run() }
        while !terminal.isRaw { await Task.yield() }
        #expect(terminal.text.contains("hi"))
        app.receive([0x03])
        try await running.value
        #expect(!terminal.isRaw, "Ctrl-C quits and restores the terminal")
    }
}

@MainActor @Suite struct TabAndStatusTests {
    @Test func tabBarSwitchesContentWithLeftAndRight() {
        let movies = Label("movie list"), search = TextField(placeholder: "Search movies")
        let tabs = TabBar([(title: "Movies", content: movies), (title: "Search", content: search)])
        let selection = MutableProperty(0)
        tabs.bind(to: selection)
        let harness = Harness(tabs, size: Size(width: 40, height: 10))
        #expect(harness.line(0).contains("Movies") && harness.line(0).contains("Search"))
        #expect(harness.text.contains("movie list"))
        #expect(!harness.text.contains("Search movies"))
        harness.press(.right)
        #expect(selection.value == 1)
        #expect(harness.text.contains("Search movies"))
        #expect(!harness.text.contains("movie list"))
        selection.value = 0
        harness.app.drawNow()
        #expect(harness.text.contains("movie list"))
    }

    @Test func statusLineShowsHintsAndErrors() {
        let status = StatusLine("Tab: next field")
        let harness = Harness(Stack(.vertical, [Label("body"), status]), size: Size(width: 30, height: 6))
        #expect(harness.text.contains("Tab: next field"))
        #expect(harness.terminal.style(x: 0, y: 1).dim)
        status.text = "Could not reach Flickr"
        status.kind = .error
        harness.app.drawNow()
        #expect(harness.line(1) == "Could not reach Flickr")
        #expect(harness.terminal.style(x: 0, y: 1).foreground == .red)
    }

    /// Issue 16 (1): in raw mode Ctrl-Z arrives as byte 0x1A; it suspends, it is not a key.
    @Test func ctrlZByteIsSuspendNotAKey() {
        var parser = KeyParser()
        let keys = parser.parse([0x1A]) + parser.releaseText()
        #expect(keys.map(TerminalApp.action(for:)) == [.suspend])
        #expect(TerminalApp.action(for: .control("c")) == .quit)
        #expect(TerminalApp.action(for: .character("z")) == .key(.character("z")))
    }

    /// Issue 16 (1): Ctrl-Z restores the terminal before stopping, takes it back after, and
    /// repaints the whole screen (not a diff against what was on it before).
    @Test func ctrlZRestoresStopsTakesBackAndRepaints() async throws {
        let terminal = InMemoryTerminal(size: Size(width: 30, height: 8))
        let app = TerminalApp(screen: TerminalScreen(Label("hi"), minimumSize: Size(width: 10, height: 3)), device: terminal)
        let running = Task { try await app.run() }
        while !terminal.isRaw { await Task.yield() }
        #expect(terminal.text.contains("hi"))
        let before = terminal.events.count
        app.receive([0x1A])
        #expect(terminal.suspensions == 1)
        let events = Array(terminal.events[before...])
        #expect(Array(events.prefix(8)) == ["cursor shown", "main screen", "cooked", "stopped", "raw", "alternate screen", "cursor hidden", "cleared"])
        #expect(events.dropFirst(8).contains("cleared"), "the renderer redraws everything, not a diff")
        #expect(terminal.text.contains("hi"), "the whole screen is drawn again after the clear")
        #expect(terminal.isRaw && terminal.isAlternateScreen && !terminal.isCursorVisible)
        app.receive([0x03])
        try await running.value
        #expect(!terminal.isRaw)
    }
}
