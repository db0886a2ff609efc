import MVVM
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: text of several lines, bound both ways to the view model. Line breaks are kept (CR LF
/// and CR as one LF), controls dropped; a person's text never longer than the maximum (at its
/// exact boundary, from both sides); a message of its own in a form; Enter a new line, never a
/// submit. The same in the tester, plain text, the terminal at 40×12 and the browser.
@MainActor
@Suite struct TextEditorTests {
    final class Report: Sendable {
        let title = MutableProperty("")
        let details = MutableProperty("")
        let detailsMessage: Property<String>
        let filed = Locked<[String]>([])
        let file: Action<Void, Void, Never>

        static let rule = "Say what happened"
        static let limit = 20

        init() {
            detailsMessage = details.readOnly.map { $0.isEmpty ? Report.rule : "" }
            let (details, filed) = (details, filed)
            file = Action { _ in
                filed.withLock { $0.append(details.value) }
                return .empty
            }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("New issue") {
                Form(submit: "File", action: file) {
                    ScreenKit.TextField("Title", text: title)
                    TextEditor("Details", text: details, placeholder: "What happened?", maxLength: Self.limit, lines: 3).message(detailsMessage)
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

    /// Line breaks in every form become one LF; the rest is cleaned as a field's text is.
    @Test func lineBreaksAreKeptAndControlsDropped() {
        #expect(TypedText.cleaned("a\r\nb\rc\nd", keepingLineBreaks: true) == "a\nb\nc\nd")
        #expect(TypedText.cleaned("\r\n\r\n", keepingLineBreaks: true) == "\n\n")
        #expect(TypedText.cleaned("\r", keepingLineBreaks: true) == "\n", "a CR at the very end")
        #expect(TypedText.cleaned("a\tb\u{1B}[31mc\u{85}d\u{202E}e", keepingLineBreaks: true) == "a bcde")
        #expect(TypedText.cleaned("a\r\nb") == "ab", "a field keeps none")
    }

    /// The maximum at its exact boundary, from both sides, for every length around it (a
    /// grapheme of several scalars counts once).
    @Test func aPersonsTextIsNeverLongerThanTheMaximum() {
        for limit in [1, 2, 5, 20] {
            let editor = TextEditor("n", text: MutableProperty(""), maxLength: limit)
            for length in max(0, limit - 2)...(limit + 2) {
                for unit in ["a", "é", "e\u{301}", "👩‍👩‍👧", "\n"] {
                    let typed = String(repeating: unit, count: length)
                    let kept = editor.kept(typed)
                    #expect(kept.count == min(length, limit), "\(length) × \(unit.debugDescription) at \(limit)")
                    #expect(typed.hasPrefix(kept))
                }
            }
        }
        #expect(TextEditor("n", text: MutableProperty("")).maxLength == TextEditor.longestText)
        #expect(TextEditor.longestText == ClientMessage.maximumValueLength, "what a browser's message carries")
    }

    /// The tester types as a person would (cut to the maximum); plain text shows each line, the
    /// count, and the message once used; Enter in the form's field submits, a refused submit
    /// shows the editor's message.
    @Test func theTesterAndPlainTextFollowTheViewModel() throws {
        let bare = TextEditor("Notes", text: MutableProperty(""), maxLength: 40)
        #expect(bare.plainLines(indent: "") == ["Notes: (0/40)"], "one space, as with text")
        let report = Report()
        let driver = Self.driver(for: report)
        #expect(driver.text.contains("Details: (What happened?) (0/20)"), "\(driver.text)")
        #expect(try driver.message(of: "Details") == "", "not used yet")
        try driver.submit("Title")
        #expect(try driver.message(of: "Details") == Report.rule && report.filed.value.isEmpty)
        #expect(driver.text.contains("  ! " + Report.rule), "\(driver.text)")
        try driver.type("First line\r\nsecond line is long", into: "Details")
        #expect(report.details.value == "First line\nsecond li", "cut to 20: \(report.details.value.debugDescription)")
        #expect(driver.text.contains("Details: (20/20)\n  First line\n  second li"), "\(driver.text)")
        try driver.submit("Title")
        #expect(report.filed.value == ["First line\nsecond li"])
    }

    /// The terminal at 40×12: the label, the rows, the count; Enter in the editor is a new line
    /// (the form is not submitted); a refused submit shows the editor's message in red under it
    /// and gives it the focus.
    @Test func theTerminalEditsLinesAndShowsTheMessageAtFortyByTwelve() throws {
        let report = Report()
        let harness = TerminalHarness(report.screen)
        let (terminal, screen, app) = (harness.terminal, harness.screen, harness.app)
        let editor = try #require(harness.all(TerminalUI.TextEditor.self).first)
        #expect(terminal.text.contains("Details") && terminal.text.contains("What happened?") && terminal.text.contains("0/20"), "\(terminal.text)")
        app.handle([.enter])   // Enter in the title: the form's submit, refused
        app.drawNow()
        #expect(terminal.text.contains(Report.rule) && screen.focused === editor, "\(terminal.text)")
        app.handle(Array("one").map { .character($0) } + [.enter] + Array("two").map { .character($0) })
        app.drawNow()
        #expect(report.details.value == "one\ntwo" && report.filed.value.isEmpty, "Enter in the editor is a new line")
        #expect(!terminal.text.contains(Report.rule) && terminal.text.contains("7/20"), "\(terminal.text)")
        let lines = terminal.text.split(separator: "\n", omittingEmptySubsequences: false)
        let one = try #require(lines.firstIndex { $0.hasPrefix("one") })
        #expect(lines[one + 1].hasPrefix("two"), "\(terminal.text)")
        report.details.value = "set by\nthe view model"
        app.drawNow()
        #expect(editor.text == "set by\nthe view model" && terminal.text.contains("21/20"), "the view model's text shown whole: \(terminal.text)")
        app.handle([.character("!")])
        app.drawNow()
        #expect(report.details.value == "set by\nthe view model" && terminal.text.contains("21/20 · 1 not taken"), "no room: said \(terminal.text)")
    }

    /// The browser: a `<textarea>` named by its label with its rows and `maxlength`; text the
    /// view model sets shows (a leading line break kept in the HTML); what the page sends is
    /// kept as the editor keeps it, and the page is given the kept text when it differs; a
    /// submit on it is not taken; the count follows; the message is tied to it.
    @Test func theBrowserKeepsWhatThePageSentAndRestatesWhatItCut() throws {
        let report = Report()
        let browser = BrowserHarness(report.screen)
        let document = browser.document
        let area = try #require(browser.all { $0.tag == "textarea" }.first as? WebUI.TextArea)
        let count = try #require(browser.all { $0.attribute("class") == "dim count" }.first)
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        #expect(area.attribute("aria-label") == "Details" && area.attribute("rows") == "3" && area.attribute("maxlength") == "20")
        #expect(area.attribute("name") == "details" && area.attribute("aria-describedby") == message.id && count.text == "0/20")
        report.details.value = "\nstarts with a break"
        let html = document.render().html
        #expect(html.contains(">\n\nstarts with a break</textarea>"), "the parser drops one line break after <textarea>: \(html)")
        document.flush()
        try browser.send("i", area, "line one\r\nline two")
        #expect(report.details.value == "line one\nline two" && count.text == "17/20")
        #expect(document.pendingPatches.contains(.value(area.id, "line one\nline two")), "the page given the kept text: \(document.pendingPatches)")
        document.flush()
        try browser.send("i", area, "line one\nline two\nand three")
        #expect(report.details.value == "line one\nline two\nan", "cut to 20")
        #expect(document.pendingPatches.contains(.value(area.id, "line one\nline two\nan")), "\(document.pendingPatches)")
        document.flush()
        try browser.send("i", area, "ok\n")
        #expect(report.details.value == "ok\n" && !document.pendingPatches.contains { if case .value = $0 { true } else { false } }, "the page shows it already")
        try browser.send("s", area)
        #expect(report.filed.value.isEmpty, "a submit on a textarea is not taken")
        try browser.send("i", area, "")
        #expect(!message.isHidden && message.text == Report.rule && area.attribute("aria-invalid") == "true")
    }
}
