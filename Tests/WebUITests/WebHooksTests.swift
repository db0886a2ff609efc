import MVVM
import ScreenKit
import Signals
import Testing
@testable import WebUI
import WebUITestSupport

/// Issue 43: a class, an id and an accessible name on any described element, drawn by the
/// browser on the control itself; an id that is invalid or already taken is WebUI's own.
@MainActor
@Suite struct WebHooksTests {
    func page(_ screen: ScreenKit.Screen) -> (Document, String) {
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: screen).content])
        return (document, document.render().html)
    }

    /// The start tag of the element whose id is `id`.
    func tag(withID id: String, in html: String) -> Substring? {
        guard let at = html.range(of: " id=\"\(id)\"") else { return nil }
        let start = html[..<at.lowerBound].lastIndex(of: "<") ?? at.lowerBound
        let end = html[at.upperBound...].firstIndex(of: ">") ?? html.endIndex
        return html[start...end]
    }

    @Test func aButtonAFieldAChoiceAndAToggleCarryTheirHooks() throws {
        let name = MutableProperty(""), choice = MutableProperty(0), on = MutableProperty(false)
        let presses = MutableProperty(0)
        let (document, html) = page(ScreenKit.Screen("Hooks") {
            Button("Save") { presses.value += 1 }.webClass("wide tall").webID("save").accessibilityLabel("Save the list")
            TextField("Name", text: name).webID("name").accessibilityLabel("Your name").webClass("big")
            Choice("Show", options: ["All", "Done"], selection: choice).webID("show")
            Toggle("Birthdays", isOn: on).webID("birthdays")
        })
        let save = try #require(tag(withID: "save", in: html), "\(html)")
        #expect(save.hasPrefix("<button") && save.contains("wide tall") && save.contains("aria-label=\"Save the list\""), "\(save)")
        let field = try #require(tag(withID: "name", in: html), "\(html)")
        #expect(field.hasPrefix("<input") && field.contains("aria-label=\"Your name\""), "the id and the name are the input's: \(field)")
        #expect(html.contains("class=\"col field big\""), "the class is on the field's label and input together")
        #expect(try #require(tag(withID: "show", in: html)).contains("role=\"tablist\""))
        #expect(try #require(tag(withID: "birthdays", in: html)).hasPrefix("<input"))
        // The page's script names the element by that id: a click on `save` presses Save.
        let button = try #require(document.element("save"))
        _ = button.handle(.click, target: button)
        #expect(presses.value == 1)
    }

    @Test(arguments: ["e12", "e1", "9lives", "has space", "quote\"", "", String(repeating: "a", count: 33), "é"])
    func anInvalidIDIsWebUIsOwn(id: String) {
        #expect(!WebHooks.isValidID(id))
        let (_, html) = page(ScreenKit.Screen("S") { Button("Go") {}.webID(id) })
        #expect(tag(withID: id, in: html)?.hasPrefix("<button") != true, "\(html)")
        #expect(html.contains(">Go</button>"))
    }

    @Test(arguments: ["e", "eX1", "a", "Save_2", "x-y", String(repeating: "a", count: 32)])
    func aValidIDIsKept(id: String) {
        #expect(WebHooks.isValidID(id))
        let (_, html) = page(ScreenKit.Screen("S") { Button("Go") {}.webID(id) })
        #expect(html.contains("id=\"\(id)\""), "\(html)")
    }

    @Test func anIDAlreadyOnThePageGoesToTheFirstOnly() {
        let (_, html) = page(ScreenKit.Screen("S") {
            Button("One") {}.webID("twice")
            Button("Two") {}.webID("twice")
        })
        #expect(html.components(separatedBy: "id=\"twice\"").count == 2, "\(html)")
        #expect(html.contains(">Two<"))
    }

    /// An element the page lets go of and takes back keeps the id its app asked for; WebUI's own
    /// ids are given anew.
    @Test func anAppsIDSurvivesLeavingThePageAndComingBack() throws {
        let (document, _) = page(ScreenKit.Screen("S") { Button("Go") {}.webID("go") })
        let button = try #require(document.element("go"))
        let parent = try #require(button.parent)
        button.removeFromParent()
        #expect(document.element("go") == nil && button.preferredID == "go")
        parent.append(button)
        #expect(document.element("go") === button && button.id == "go")
        let plain = WebUI.Label("x")
        parent.append(plain)
        let first = plain.id
        plain.removeFromParent()
        #expect(plain.id.isEmpty && plain.preferredID == nil)
        parent.append(plain)
        #expect(!plain.id.isEmpty && plain.id != first)
    }

    @Test func hooksSurviveVisibilityEitherWayRound() {
        let shown = MutableProperty(true)
        let (_, html) = page(ScreenKit.Screen("S") {
            Button("A") {}.webID("a").visible(when: shown)
            Button("B") {}.visible(when: shown).webID("b").webClass("bee")
        })
        #expect(html.contains("id=\"a\"") && html.contains("id=\"b\"") && html.contains("bee"), "\(html)")
    }
}

/// The example of 'Styling a page', drawn and clicked by its id.
@MainActor
@Suite struct StylingArticleTests {
    @Test func theNoteScreenHasItsIDsAndAClickOnSaveSaves() throws {
        let note = NoteViewModel()
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: noteScreen(note)).content])
        let html = document.render().html
        #expect(html.contains("<input id=\"note-title\""), "\(html)")
        #expect(html.contains("<button id=\"save\" class=\"button wide\" type=\"button\" aria-label=\"Save the note\">Save</button>"), "\(html)")
        try document.handle(ClientMessage.parse(#"{"t":"i","id":"note-title","v":"Groceries","n":1}"#))
        try document.handle(ClientMessage.parse(#"{"t":"c","id":"save","n":2}"#))
        #expect(note.saved == ["Groceries"])
    }

    @Test func articleCodeIsThisFile() throws {
        let (count, missing) = try ArticleCode.blocksMissing(from: ["Tests/WebUITests/StylingArticleScreen.swift", "Tests/WebUITests/OtherLanguageTests.swift"],
                                                             article: "Sources/WebUI/WebUI.docc/StylingAPage.md")
        #expect(count == 2)
        for block in missing {
            Issue.record("this block of StylingAPage.md is in none of StylingArticleScreen.swift, OtherLanguageTests.swift:\n\(block)")
        }
    }
}

/// Issue 43: a button that changes the address is drawn as a link to it; it is pressed as a
/// button, and says it is disabled with aria-disabled (a link has no disabled).
@MainActor
@Suite struct LinkingButtonTests {
    @Test func aLinkingButtonIsALinkThatPresses() throws {
        let filter = MutableProperty("all")
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: ScreenKit.Screen("To-dos") {
            for name in ["all", "active", "done"] {
                ScreenKit.Button(name, isEnabled: filter.live.map { $0 != name }) { filter.value = name }
                    .linking(query: ["filter": name == "all" ? "" : name, "q": "milk & honey"])
            }
            ScreenKit.Button("Save") {}
        }).content])
        let html = document.render().html
        func startTag(of title: String) -> Substring? {
            guard let end = html.range(of: ">\(title)</a>") else { return nil }
            return html[(html[..<end.lowerBound].lastIndex(of: "<") ?? end.lowerBound)..<end.lowerBound]
        }
        let activeTag = try #require(startTag(of: "active"), "\(html)")
        #expect(activeTag.contains(#"data-query="filter=active&amp;q=milk%20%26%20honey""#) && activeTag.contains(#"href="?filter=active&amp;q=milk%20%26%20honey""#), "\(activeTag)")
        #expect(!activeTag.contains("aria-disabled"))
        let allTag = try #require(startTag(of: "all"), "\(html)")
        // All: no filter in its link; its script's items remove one (an empty value).
        #expect(allTag.contains(#"aria-disabled="true""#) && allTag.contains(#"href="?q=milk%20%26%20honey""#), "\(allTag)")
        #expect(allTag.contains(#"data-query="filter=&amp;q=milk%20%26%20honey""#), "\(allTag)")
        #expect(html.contains(">Save</button>"), "a button that does not change the address stays a button")
        func buttons(in element: WebUI.Element) -> [WebUI.Button] {
            [element as? WebUI.Button].compactMap { $0 } + element.children.flatMap(buttons)
        }
        let active = try #require(buttons(in: document.root).first { $0.text == "active" })
        #expect(active.tag == "a" && active.isEnabled)
        try document.handle(ClientMessage.parse(#"{"t":"c","id":"\#(active.id)","n":1}"#))
        #expect(filter.value == "active")
        #expect(!active.isEnabled && active.attribute("aria-disabled") == "true" && active.attribute("disabled") == nil)
        try document.handle(ClientMessage.parse(#"{"t":"c","id":"\#(active.id)","n":2}"#))
        #expect(filter.value == "active", "a disabled link is not pressed")
    }

    /// Issue 59: a button that opens one of the app's screens is a link to its address, under
    /// the page's (`linking(path:)`): its path encoded, pressed as a button.
    @Test func aButtonOpeningAScreenIsALinkToItsAddress() throws {
        let opened = MutableProperty(0)
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: ScreenKit.Screen("People") {
            ScreenKit.Button("Settings") { opened.value += 1 }.linking(path: ["settings"])
            ScreenKit.Button("Ada's page") { opened.value += 10 }.linking(path: ["people", "Ada Lovelace/1?"])
        }).content])
        let html = document.render().html
        #expect(html.contains(#"href="settings""#) && html.contains(#"data-path="settings""#) && html.contains(">Settings</a>"), "\(html)")
        // `data-press`: the page's script sends its click (a row's title link has none: its row's click is the row's).
        #expect(html.contains("data-press=\"\""), "\(html)")
        #expect(html.contains(#"data-path="people/Ada%20Lovelace%2F1%3F""#), "each segment encoded: \(html)")
        let link = try #require(FormTestsSupport.first(document.root) { $0.text == "Settings" })
        try document.handle(ClientMessage.parse(#"{"t":"c","id":"\#(link.id)","n":1}"#))
        #expect(opened.value == 1 && link.tag == "a")
    }
}
