import MVVM
import ScreenKit
import ScreenTesting
import Signals
import Testing
import WebUI

/// Issue 59 (a first user's finding): a form that went through starts afresh, as LiveView's
/// fresh form after a save. A view model that empties its fields after a submit does not greet
/// the person with "Enter a title" in red; the next edit counts as use again; and a submit that
/// failed keeps its fields used, so the message the view model gives for the failure shows.
@MainActor
@Suite struct FormResetTests {
    struct Taken: Error {}

    final class NewItem: Sendable {
        let title = MutableProperty("")
        let taken = MutableProperty(false)
        let titleMessage: Live<String>
        let added = Locked<[String]>([])
        let add: Action<Void, Void, Taken>

        static let rule = "Enter a title"
        static let takenMessage = "That title is taken"

        init() {
            titleMessage = title.live.combine(taken.live) { title, taken in
                title.isEmpty ? NewItem.rule : taken ? NewItem.takenMessage : ""
            }
            let (title, taken, added) = (title, taken, added)
            add = Action { _ in
                guard title.value != "Milk" || added.value.isEmpty else {
                    taken.value = true
                    return .fail(Taken())
                }
                added.withLock { $0.append(title.value) }
                title.value = ""
                return .empty
            }
            // A new title is not the taken one.
            _ = title.signal.sink { _ in if taken.value { taken.value = false } }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("New item") {
                Form(submit: "Add", action: add) {
                    ScreenKit.TextField("Title", text: title).message(titleMessage)
                }
            }
        }
    }

    final class Root: Sendable {}

    /// The tester: after an add that emptied the field, no message; a submit tried on the empty
    /// field shows it; a failed add ("taken") keeps its message in view.
    @Test func aFormThatWentThroughStartsAfreshInTheTester() throws {
        let item = NewItem()
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in item.screen }
        let driver = ScreenDriver(navigator: Navigator(root: Root()), registry: registry)
        try driver.type("Milk", into: "Title")
        try driver.submit("Title")
        #expect(item.added.value == ["Milk"] && item.title.value == "")
        #expect(try driver.message(of: "Title") == "", "emptied by the view model after the add: no message")
        try driver.submit("Title")
        #expect(try driver.message(of: "Title") == NewItem.rule, "a submit tried again shows it")
        try driver.type("Milk", into: "Title")
        try driver.submit("Title")
        #expect(item.added.value == ["Milk"])
        #expect(try driver.message(of: "Title") == NewItem.takenMessage, "a failed add keeps the field used")
    }

    /// The browser, through the person's own edits: after the add the field shows nothing; the
    /// person's next edits count as use again (emptying it shows its message).
    @Test func thePersonsNextEditCountsAsUseAgainInTheBrowser() throws {
        let item = NewItem()
        let browser = BrowserHarness(item.screen)
        let input = try #require(browser.all { $0 is WebUI.TextField }.first)
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        try browser.send("i", input, "Bread")
        try browser.send("i", input, "")
        #expect(!message.isHidden && message.text == NewItem.rule, "used: its message shows")
        try browser.send("i", input, "Bread")
        try browser.send("s", input)
        #expect(item.added.value == ["Bread"] && item.title.value == "")
        #expect(message.isHidden && input.attribute("aria-invalid") == nil, "the add emptied it: no message")
        try browser.send("i", input, "B")
        try browser.send("i", input, "")
        #expect(!message.isHidden && message.text == NewItem.rule, "the next edits count as use again")
    }
}
