import MVVM
import NewIssue
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 59: the new issue form, every control of a form, tested headless in virtual time: the
/// rules at their exact boundaries, the form refused while a rule is broken, each control set
/// as a person sets it, and a filing whose progress advances with the virtual clock.
@MainActor
@Suite struct NewIssueTests {
    static func tester() -> (ScreenTester, NewIssueViewModel, Navigator) {
        let scheduler = TestScheduler(tick: .milliseconds(250))
        let viewModel = NewIssueViewModel(scheduler: scheduler)
        let navigator = Navigator(root: viewModel)
        let registry = ScreenRegistry<ScreenKit.Screen>()
        NewIssueScreens.register(in: registry)
        return (ScreenTester(navigator: navigator, registry: registry, scheduler: scheduler), viewModel, navigator)
    }

    /// The title's rule at both ends, from both sides (spaces at either end do not count); the
    /// details' rule for empty and blank text.
    @Test func theRulesHoldAtTheirExactBoundaries() {
        let viewModel = NewIssueViewModel(scheduler: TestScheduler())
        for length in [0, 1, 4, 5, 6, 79, 80, 81, 200] {
            viewModel.title.value = String(repeating: "x", count: length)
            let expected = length < 5 ? "At least 5 characters" : length > 80 ? "At most 80 characters" : ""
            #expect(viewModel.titleMessage.value == expected, "\(length) characters")
            viewModel.title.value = "  " + String(repeating: "y", count: length) + "\n "
            #expect(viewModel.titleMessage.value == expected, "\(length) characters between spaces")
        }
        for (details, expected) in [("", "Say what happened"), (" \n\t", "Say what happened"), ("It crashed", "")] {
            viewModel.details.value = details
            #expect(viewModel.detailsMessage.value == expected, "\(details.debugDescription)")
        }
    }

    /// A person's whole form: refused while a rule is broken (every message shown), then each
    /// control set; filing advances its progress a quarter a step in virtual time and files what
    /// the form held; a second issue is filed from there.
    @Test func aPersonFilesAnIssueWithEveryControl() throws {
        let (tester, viewModel, navigator) = Self.tester()
        defer { navigator.close() }
        #expect(try tester.message(of: "Title") == "" && tester.text.contains("[File issue] (disabled)"), "\(tester.text)")
        try tester.submit("Title")
        #expect(try tester.message(of: "Title") == "At least 5 characters" && tester.message(of: "Details") == "Say what happened")
        #expect(try tester.message(of: "Labels") == "Choose at least one label")
        try tester.type("Crash on save", into: "Title")
        try tester.type("Pressing Save\r\nquits the app.", into: "Details")
        try tester.choose("Idea")
        try tester.toggle("docs", in: "Labels")
        try tester.toggle("crash", in: "Labels")
        #expect(try tester.message(of: "Labels") == "")
        try tester.choose("Urgent")
        #expect(try tester.enter("2027-02-29", into: "Due") == "“2027-02-29” is not a day (YYYY-MM-DD)")
        #expect(try tester.enter("2027-03-15 17:00", into: "Due") == "")
        try tester.step("Estimate (hours)", by: 3)
        try tester.set(0.8, of: "Confidence")
        try tester.toggle("Notify me")
        #expect(tester.text.contains("[File issue]") && !tester.text.contains("(disabled)"), "\(tester.text)")
        try tester.press("File issue")
        #expect(viewModel.status.value == "Filing…" && viewModel.progress.value == 0)
        for step in 1...NewIssueViewModel.filingSteps {
            #expect(throws: ScreenDriverError.busy("File issue")) { try tester.press("File issue") }
            tester.advance(by: NewIssueViewModel.filingStep)
            #expect(viewModel.progress.value == Double(step) / 4, "step \(step)")
        }
        #expect(tester.text.contains("Filing: [██████████] 100%") || tester.text.contains("100%"), "\(tester.text)")
        #expect(viewModel.filed.value == [FiledIssue(
            number: 1, title: "Crash on save", details: "Pressing Save\nquits the app.", kind: "Idea", labels: ["crash", "docs"], priority: "Urgent", due: "2027-03-15 17:00", estimate: 5, confidence: 0.8, notify: false)])
        #expect(viewModel.status.value == "Filed #1: Crash on save [crash, docs] (Idea, Urgent, due 2027-03-15 17:00, 5 h, 80% sure, 2 lines)" && viewModel.title.value == "Crash on save", "the form keeps what was filed")
        try tester.type("Crash on load", into: "Title")
        try tester.press("File issue")
        tester.run()
        #expect(viewModel.filed.value.map(\.number) == [1, 2] && viewModel.status.value.hasPrefix("Filed #2: Crash on load [crash, docs] (Idea"))
    }

    /// The screen as plain text: every control, in order.
    @Test func everyControlShowsInPlainText() {
        let (tester, _, navigator) = Self.tester()
        defer { navigator.close() }
        for line in [
            "Title: (5 to 80 characters)", "Details: (What happened, and what you expected) (0/500)", "(•) Bug", "Labels: [ ] crash  [ ] ui  [ ] docs  [ ] speed", "Priority: [Normal ▾]", "Due: (no day) --:--",
            "Estimate (hours): 2 (1–40)", "Confidence:", "[x] Notify me", "[File issue] (disabled)", "Filing:", "How to report bugs effectively",
        ] {
            #expect(tester.text.contains(line), "\(line) in \(tester.text)")
        }
    }
}
