import MVVM
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: a multi-select (huh's `MultiSelect`), bound both ways to a set; its message shows
/// once it is used or its form's submit is tried, and a refused submit gives it the focus. The
/// same in the tester, plain text, the terminal at 40×12 and the browser.
@MainActor
@Suite struct MultiChoiceTests {
    enum Label: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case crash, ui, docs
        var description: String { rawValue }
    }

    final class Report: Sendable {
        let title = MutableProperty("")
        let labels = MutableProperty<Set<Label>>([])
        let labelsMessage: Property<String>
        let filed = Locked<[Set<Label>]>([])
        let file: Action<Void, Void, Never>

        static let rule = "Choose at least one label"

        init() {
            labelsMessage = labels.readOnly.map { $0.isEmpty ? Report.rule : "" }
            let (labels, filed) = (labels, filed)
            file = Action { _ in
                filed.withLock { $0.append(labels.value) }
                return .empty
            }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("New issue") {
                Form(submit: "File", action: file) {
                    ScreenKit.TextField("Title", text: title)
                    MultiChoice("Labels", selection: labels).message(labelsMessage)
                }
            }
        }
    }

    final class Root: Sendable {}

    static func driver(for report: Report) -> ScreenDriver {
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in report.screen }
        return ScreenDriver(navigator: Navigator(root: Root()), registry: registry)
    }

    /// Flipping toggles one index; an index that is no option's changes nothing.
    @Test func flippingTogglesOneOption() {
        let choice = MultiChoice("L", options: ["a", "b"], selection: MutableProperty([]))
        #expect(choice.flipping(0, in: []) == [0])
        #expect(choice.flipping(0, in: [0, 1]) == [1])
        #expect(choice.flipping(1, in: [0]) == [0, 1])
        #expect(choice.flipping(2, in: [0]) == [0] && choice.flipping(-1, in: [1]) == [1])
    }

    /// Over the view model's own values: the indices follow the set both ways, and a value that
    /// is none of the options stays in the set through the person's flips.
    @Test func aSetOfTheViewModelsValuesFollowsBothWays() {
        let days = MutableProperty<Set<String>>(["Sun", "holiday"])
        let choice = MultiChoice("Days", options: ["Mon", "Tue", "Sun"], selection: days, title: { $0.uppercased() })
        #expect(choice.options == ["MON", "TUE", "SUN"] && choice.selection.value == [2])
        choice.selection.value = [0, 2]
        #expect(days.value == ["Mon", "Sun", "holiday"], "holiday is no option: kept")
        days.value = ["Tue"]
        #expect(choice.selection.value == [1])
        choice.selection.value = [1, 9]
        #expect(days.value == ["Tue"], "an index that is no option's sets nothing")
    }

    /// The tester flips as a person does; plain text shows the boxes and, once used, the
    /// message; a refused submit shows it; the form files once the rule holds.
    @Test func theTesterAndPlainTextFollowTheViewModel() throws {
        let report = Report()
        let driver = Self.driver(for: report)
        #expect(driver.text.contains("Labels: [ ] crash  [ ] ui  [ ] docs"), "\(driver.text)")
        #expect(try driver.message(of: "Labels") == "", "not used yet")
        try driver.submit("Title")
        #expect(try driver.message(of: "Labels") == Report.rule && report.filed.value.isEmpty)
        #expect(driver.text.contains("  ! " + Report.rule), "\(driver.text)")
        try driver.toggle("ui", in: "Labels")
        try driver.toggle("docs", in: "Labels")
        #expect(report.labels.value == [.ui, .docs] && driver.text.contains("Labels: [ ] crash  [x] ui  [x] docs"), "\(driver.text)")
        try driver.toggle("ui", in: "Labels")
        #expect(report.labels.value == [.docs])
        #expect(throws: ScreenDriverError.self) { try driver.toggle("perf", in: "Labels") }
        try driver.submit("Title")
        #expect(report.filed.value == [[.docs]])
    }

    /// A message shows once the person flipped an option, not before (the tester's flip marks
    /// it used as a person's does).
    @Test func theMessageWaitsForAFlip() throws {
        let report = Report()
        let driver = Self.driver(for: report)
        try driver.toggle("crash", in: "Labels")
        #expect(try driver.message(of: "Labels") == "")
        try driver.toggle("crash", in: "Labels")
        #expect(try driver.message(of: "Labels") == Report.rule, "used: its message shows")
    }

    /// The terminal at 40×12: the label and a row per option; ↑ ↓ move (past the ends the focus
    /// moves on), Space and Enter flip the highlighted one; a refused submit shows the message in
    /// red and gives the list the focus; a set from the view model shows.
    @Test func theTerminalFlipsWithKeysAtFortyByTwelve() throws {
        let report = Report()
        let harness = TerminalHarness(report.screen)
        let (terminal, screen, app) = (harness.terminal, harness.screen, harness.app)
        let list = try #require(harness.all(TerminalUI.CheckList.self).first)
        let field = try #require(harness.all(TerminalUI.TextField.self).first)
        #expect(terminal.text.contains("Labels") && terminal.text.contains("[ ] crash") && terminal.text.contains("[ ] docs"), "\(terminal.text)")
        #expect(screen.focused === field)
        app.handle([.enter])   // Enter in the title: the form's submit, refused
        app.drawNow()
        #expect(terminal.text.contains(Report.rule) && screen.focused === list, "\(terminal.text)")
        #expect(list.cursorPosition?.y == list.frame.y, "the cursor on the first box")
        #expect(!list.handle(.up), "past the first the focus moves on")
        app.handle([.down, .character(" "), .down, .enter])
        app.drawNow()
        #expect(report.labels.value == [.ui, .docs] && !terminal.text.contains(Report.rule), "\(terminal.text)")
        #expect(terminal.text.contains("[x] ui") && terminal.text.contains("[x] docs"), "\(terminal.text)")
        #expect(!list.handle(.down) && list.highlighted == 2, "past the last the focus moves on")
        #expect(list.handle(.home) && list.highlighted == 0 && list.handle(.end) && list.highlighted == 2)
        #expect(!list.handle(.character("x")), "other keys are not the list's")
        report.labels.value = [.crash]
        app.drawNow()
        #expect(list.selection == [0] && terminal.text.contains("[x] crash") && terminal.text.contains("[ ] ui"), "\(terminal.text)")
        #expect(report.filed.value.isEmpty)
    }

    /// A person's first flip counts as use in every renderer: flipped on and off again, the
    /// list shows its message (before any flip, none).
    @Test func aPersonsFlipCountsAsUseInEveryRenderer() throws {
        let terminalReport = Report()
        let terminal = TerminalHarness(terminalReport.screen)
        let list = try #require(terminal.all(TerminalUI.CheckList.self).first)
        terminal.screen.focus(list)
        terminal.app.drawNow()
        #expect(!terminal.terminal.text.contains(Report.rule))
        terminal.app.handle([.character(" "), .character(" ")])
        terminal.app.drawNow()
        #expect(terminalReport.labels.value.isEmpty && terminal.terminal.text.contains(Report.rule), "\(terminal.terminal.text)")

        let browserReport = Report()
        let browser = BrowserHarness(browserReport.screen)
        let group = try #require(browser.all { $0 is WebUI.CheckList }.first as? WebUI.CheckList)
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        try browser.send("g", group.boxes[0].box, "true")
        #expect(message.isHidden)
        try browser.send("g", group.boxes[0].box, "false")
        #expect(browserReport.labels.value.isEmpty && !message.isHidden && message.text == Report.rule)
    }

    /// Every control a restart under the page gives back is named by its label (the page's
    /// script finds each again in the new session's page by it): text, number, checkbox,
    /// picker, segments, a multi-choice's boxes, a date.
    @Test func everyControlARestartGivesBackIsNamed() {
        let browser = BrowserHarness(ControlAgreementTests.Form().screen)
        let named = browser.all { $0.attribute("name") != nil || $0.attribute("data-name") != nil }
            .map { [$0.tag, $0.attribute("type") ?? "", $0.attribute("name") ?? $0.attribute("data-name") ?? ""] }
        #expect(named == [
            ["input", "text", "title"], ["input", "checkbox", "urgent"], ["div", "", "kind"], ["select", "", "priority"],
            ["input", "number", "copies"], ["textarea", "", "notes"],
            ["input", "checkbox", "labels"], ["input", "checkbox", "labels"], ["input", "checkbox", "labels"], ["input", "checkbox", "labels"],
            ["input", "date", "due"],
        ], "\(named)")
    }

    /// The terminal draws the highlighted row reversed only while the list has the focus.
    @Test func theHighlightShowsOnlyWithTheFocus() throws {
        let report = Report()
        let harness = TerminalHarness(report.screen)
        let list = try #require(harness.all(TerminalUI.CheckList.self).first)
        func reversed() -> Bool {
            (0..<9).contains { harness.terminal.style(x: list.frame.x + $0, y: list.frame.y).reverse }
        }
        #expect(!reversed())
        harness.screen.focus(list)
        harness.app.drawNow()
        #expect(reversed())
    }

    /// The browser: a `<fieldset>` named by its `<legend>`, a checkbox with its label for each
    /// option; a click on one reaches the view model; a set from the view model checks the boxes;
    /// the message is tied to the group, and a refused submit focuses its first box.
    @Test func theBrowserShowsAGroupOfCheckboxes() throws {
        let report = Report()
        let browser = BrowserHarness(report.screen)
        let document = browser.document
        let group = try #require(browser.all { $0.tag == "fieldset" }.first as? WebUI.CheckList)
        let legend = try #require(browser.all { $0.tag == "legend" }.first)
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        #expect(legend.text == "Labels" && group.boxes.map(\.box.tag) == ["input", "input", "input"])
        #expect(group.attribute("aria-describedby") == message.id && message.isHidden)
        // Named, so that a restart under the page gives each box back: one name, each its index.
        #expect(group.boxes.map { [$0.box.attribute("name"), $0.box.attribute("value")] } == [["labels", "0"], ["labels", "1"], ["labels", "2"]])
        let field = try #require(browser.all { $0 is WebUI.TextField }.first)
        document.flush()
        try browser.send("s", field)
        #expect(!message.isHidden && message.text == Report.rule && group.attribute("aria-invalid") == "true")
        #expect(document.pendingPatches.contains(.focus(group.boxes[0].box.id)), "\(document.pendingPatches)")
        try browser.send("g", group.boxes[1].box, "true")
        try browser.send("g", group.boxes[2].box, "true")
        #expect(report.labels.value == [.ui, .docs] && message.isHidden && group.attribute("aria-invalid") == nil)
        try browser.send("g", group.boxes[1].box, "false")
        #expect(report.labels.value == [.docs])
        report.labels.value = [.crash, .ui]
        #expect(group.boxes.map(\.isOn) == [true, true, false])
        try browser.send("s", field)
        #expect(report.filed.value == [[.crash, .ui]])
    }
}
