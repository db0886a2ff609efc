import MVVM
import ScreenKit
import Signals
import Testing
import WebUI

/// Issue 59 (a first user's finding): every field's label in the browser is a `<label for>`
/// naming its field, so a click on the label focuses the field (a file field's opens the
/// chooser), as a label written by hand does; a segmented choice, which is a group and no one
/// field, keeps a plain label.
@MainActor
@Suite struct FieldLabelTests {
    /// The label before each kind of field names that field's id, in the page's HTML (the
    /// attribute is written with the label, not patched in after).
    @Test func eachFieldsLabelNamesItsField() throws {
        let text = MutableProperty(""), number = MutableProperty(2), day = MutableProperty<Day?>(nil)
        let files = MutableProperty<[ReceivedFile]>([]), pick = MutableProperty(0)
        let screen = ScreenKit.Screen("Every field") {
            ScreenKit.TextField("Title", text: text)
            ScreenKit.SecureField("Password", text: text)
            TextEditor("Notes", text: text)
            ScreenKit.Stepper("Copies", value: number, in: 1...9)
            ScreenKit.Stepper("Volume", value: number, in: 0...10, style: .slider)
            ScreenKit.DatePicker("Due", day: day)
            FileField("Attachments", files: files, maxSize: 10)
            Choice("Country", options: ["—", "France", "Japan"], selection: pick, style: .menu)
            Choice("Plan", options: ["Free", "Pro"], selection: pick)
        }
        let browser = BrowserHarness(screen)
        let html = browser.document.root.html
        let labels = browser.all { $0.tag == "label" && $0.attribute("class") == "dim" }
        #expect(labels.count == 8, "\(labels.map(\.html))")
        let fieldTags: Set = ["input", "textarea", "select"]
        for label in labels {
            let named = try #require(label.attribute("for"), "\(label.html)")
            let field = try #require(browser.document.element(named))
            #expect(fieldTags.contains(field.tag), "\(label.html) names \(field.html)")
            #expect(html.contains("for=\"\(named)\">\(label.text)</label>"), "\(label.html)")
        }
        let days = browser.all { $0.attribute("type") == "date" }
        #expect(labels.contains { $0.attribute("for") == days.first?.id }, "the date's label names its day")
        #expect(browser.all { $0.tag == "span" && $0.text == "Plan:" }.count == 1, "a segmented choice keeps a plain label")
    }

    /// Issue 60 (a first user's finding): a field that says what it holds tells the browser's
    /// password manager (`autocomplete`); one that says nothing keeps autofill off.
    @Test func aFieldsContentTypeIsItsAutocomplete() throws {
        let text = MutableProperty("")
        let screen = ScreenKit.Screen("Sign in") {
            ScreenKit.TextField("Email", text: text).contentType(.username)
            ScreenKit.SecureField("Password", text: text).contentType(.currentPassword)
            ScreenKit.SecureField("New password", text: text).message(Live.constant("")).contentType(.newPassword)
            ScreenKit.TextField("Search", text: text)
        }
        let browser = BrowserHarness(screen)
        let inputs = browser.all { $0.tag == "input" }.map { ($0.attribute("aria-label") ?? "", $0.attribute("autocomplete") ?? "") }
        #expect(inputs.map(\.0) == ["Email", "Password", "New password", "Search"])
        #expect(inputs.map(\.1) == ["username", "current-password", "new-password", "off"])
    }
}
