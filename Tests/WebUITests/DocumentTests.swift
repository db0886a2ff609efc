import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing
@testable import WebUI

/// T-BEYOND4: pages render to HTML, and changes become patches, in memory: no browser, no socket.
@MainActor
@Suite struct DocumentTests {
    func page(_ elements: [Element]) -> Document {
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren(elements)
        _ = document.render()
        return document
    }

    @Test func firstRenderIsEscapedHTMLWithIDs() {
        let label = Label("<b>Tom & \"Jerry\"</b>")
        let document = page([Stack(.vertical, [label])])
        let html = document.bodyHTML
        #expect(html.contains("<span id=\"\(label.id)\">&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;</span>"))
        #expect(html.hasPrefix("<main id=\"e1\" class=\"app\"><div id="))
        #expect(document.pendingPatches.isEmpty)
    }

    @Test func aTextChangeIsOnePatchAndTheLastOneWins() throws {
        let label = Label("a")
        let document = page([label])
        label.text = "b"
        label.text = "c"
        #expect(document.pendingPatches == [.text(label.id, "c")])
        let frame = try #require(document.flush())
        #expect(frame == "{\"t\":\"p\",\"s\":1,\"a\":0,\"o\":[[\"t\",\"\(label.id)\",\"c\"]]}")
        #expect(document.flush() == nil)
    }

    /// `load(_:)` asks the page to load an address of this site, never another one: a path that
    /// begins with `//` would be another host to the browser (`location.replace("//evil")`).
    @Test func loadIsOnlyEverAnAddressOfThisSite() throws {
        let document = page([])
        var logged: [String] = []
        document.log = { logged.append($0) }
        for path in ["//evil.example/x", "//", "///x"] {
            document.load(WebLocation(path: path))
            #expect(document.pendingPatches.isEmpty, "\(path)")
        }
        #expect(logged.count == 3)
        for (path, sent) in [("/person", "/person"), ("/a b", "/a%20b"), ("x", "/x"), ("/", "/")] {
            document.load(WebLocation(path: path))
            #expect(document.pendingPatches == [.load(sent)], "\(path)")
            let frame = try #require(document.flush())
            #expect(frame.contains(#"["l","\#(sent)"]"#))
        }
    }

    @Test func patchesAreSafeJSONEvenInsideAScript() throws {
        let label = Label("")
        let document = page([label])
        label.text = "</script>\n\"\\\u{2028}"
        let frame = try #require(document.flush())
        #expect(!frame.contains("</script>"))
        #expect(frame.contains(#"\u003c/script\u003e\n\"\\\u2028"#))
    }

    @Test func aTextFieldDoesNotEchoWhatThePageTyped() throws {
        let field = TextField(placeholder: "Search")
        let property = MutableProperty("")
        let document = page([field])
        field.bind(to: property)
        try document.handle(.event(id: field.id, .input("sun"), sequence: 1))
        #expect(property.value == "sun")
        #expect(document.pendingPatches.isEmpty)
        #expect(document.flush() == "{\"t\":\"p\",\"s\":1,\"a\":1,\"o\":[]}")
        // A value the view model sets is sent.
        property.value = "moon"
        #expect(document.pendingPatches == [.value(field.id, "moon")])
    }

    /// Issue 57: a field whose view model empties it on Enter (`clearsOnSubmit`) says so to the
    /// page, which empties it the moment it sends the Enter: the server sends no patch when the
    /// view model clears it, and gives the text back when the view model keeps it (refused).
    @Test func aFieldThatClearsOnSubmitIsEmptiedByThePageAndGivenBackIfKept() throws {
        let field = TextField(placeholder: "New to-do")
        field.clearsOnSubmit = true
        #expect(field.attribute("data-mvvm-clears") == "")
        let property = MutableProperty("")
        let document = page([field])
        field.bind(to: property)
        let added = Locked<[String]>([])
        let subscription = field.submissions.sink(value: { text in
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }   // refused
            added.withLock { $0.append(text) }
            property.value = ""
        })
        defer { subscription.dispose() }
        try document.handle(.event(id: field.id, .input("milk"), sequence: 1))
        try document.handle(.event(id: field.id, .submit, sequence: 2))
        #expect(added.value == ["milk"])
        #expect(document.pendingPatches.isEmpty, "the page emptied the field itself")
        try document.handle(.event(id: field.id, .input("tea"), sequence: 3))
        try document.handle(.event(id: field.id, .submit, sequence: 4))
        #expect(added.value == ["milk", "tea"])
        #expect(document.pendingPatches.isEmpty)
        _ = document.flush()
        try document.handle(.event(id: field.id, .input("   "), sequence: 5))
        try document.handle(.event(id: field.id, .submit, sequence: 6))
        #expect(added.value == ["milk", "tea"])
        #expect(document.pendingPatches == [.value(field.id, "   ")], "a refused Enter: the text comes back")
        _ = document.flush()
        // Without the declaration the page keeps the text, and nothing is sent when it stays.
        field.clearsOnSubmit = false
        #expect(field.attribute("data-mvvm-clears") == nil)
        _ = document.flush()
        try document.handle(.event(id: field.id, .submit, sequence: 7))
        #expect(document.pendingPatches.isEmpty)
    }

    /// A paste carrying terminal escape sequences reaches the view model as every view layer
    /// keeps it (`TypedText.cleaned`: here `sun` and ` shine`), and the page is sent the cleaned
    /// text, so the field and the view model never disagree. A paste that cleans to what the
    /// field already held still puts the page right.
    @Test func aPastedEscapeSequenceIsCleanedAndThePageIsPutRight() throws {
        let field = TextField(placeholder: "Search")
        let property = MutableProperty("")
        let document = page([field])
        field.bind(to: property)
        try document.handle(.event(id: field.id, .input("sun\u{1B}[31m shine\u{1B}[0m"), sequence: 1))
        #expect(property.value == "sun shine")
        #expect(document.pendingPatches == [.value(field.id, "sun shine")])
        _ = document.flush()
        try document.handle(.event(id: field.id, .input("sun shine\u{1B}]0;title\u{7}"), sequence: 2))
        #expect(property.value == "sun shine")
        #expect(document.pendingPatches == [.value(field.id, "sun shine")], "the page shows the paste's bytes: it must be put right")
        _ = document.flush()
        try document.handle(.event(id: field.id, .input("sun shines"), sequence: 3))
        #expect(property.value == "sun shines")
        #expect(document.pendingPatches.isEmpty, "plain typing is never echoed")
    }

    /// Review finding: a value the server set, then the page's own earlier value again, must be
    /// sent (the page shows the server's value by then).
    @Test func aValueSetTwiceAfterTypingIsSentEachTime() throws {
        let field = TextField()
        let document = page([field])
        try document.handle(.event(id: field.id, .input("dogs"), sequence: 1))
        _ = document.flush()
        field.value = "cats"
        #expect(document.pendingPatches == [.value(field.id, "cats")])
        _ = document.flush()
        field.value = "dogs"
        #expect(document.pendingPatches == [.value(field.id, "dogs")])
    }

    /// Review finding: a password field shown again is empty on the page (its value is never in
    /// the HTML), so its value is cleared and the view model hears it.
    @Test func aPasswordFieldShownAgainIsEmptyEverywhere() throws {
        let password = SecureField()
        let property = MutableProperty("")
        let box = Stack(.vertical, [password])
        let document = page([box])
        password.bind(to: property)
        try document.handle(.event(id: password.id, .input("lovelace"), sequence: 1))
        #expect(property.value == "lovelace")
        box.setChildren([])          // another page is pushed over it…
        box.setChildren([password])  // …and popped
        #expect(password.value == "")
        #expect(property.value == "")
    }

    @Test func urlsThatRunScriptNeverReachThePage() {
        for bad in ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "\u{1}javascript:x", "vbscript:x", "data:text/html,<script>x</script>"] {
            let link = Element("a", ["href": bad])
            #expect(link.attribute("href") == "about:blank", "\(bad)")
            let image = Image(source: "")
            image.source = bad
            #expect(image.source == "about:blank", "\(bad)")
        }
        for good in ["https://www.flickr.com/photos/x/1", "/placeholder.svg?t=a:b", "data:image/svg+xml,<svg/>", "#top"] {
            #expect(Element("a", ["href": good]).attribute("href") == good)
        }
    }

    /// A paste longer than the server accepts is cut by the browser to the limit, so the field
    /// never shows text the view model was refused.
    @Test func fieldsAreLimitedToWhatTheServerAccepts() {
        for field in [TextField(), SecureField()] {
            #expect(field.attribute("maxlength") == String(ClientMessage.maximumValueLength))
        }
    }

    @Test func aPasswordNeverGoesIntoTheHTML() throws {
        let field = SecureField(placeholder: "Password")
        let document = page([field])
        try document.handle(.event(id: field.id, .input("hunter2"), sequence: 1))
        #expect(field.value == "hunter2")
        #expect(!document.bodyHTML.contains("hunter2"))
        #expect(document.bodyHTML.contains("type=\"password\""))
    }

    @Test func aResentMessageIsHandledOnce() throws {
        let button = Button("Go")
        var presses = 0
        button.onPress = { presses += 1 }
        let document = page([button])
        try document.handle(.event(id: button.id, .click, sequence: 1))
        try document.handle(.event(id: button.id, .click, sequence: 1))
        try document.handle(.event(id: button.id, .click, sequence: 2))
        #expect(presses == 2)
    }

    @Test func eventsForUnknownElementsOrKindsAreRefused() {
        let label = Label("x")
        let document = page([label])
        #expect(throws: ClientMessageError.unknownElement("e999")) { try document.handle(.event(id: "e999", .click, sequence: 1)) }
        #expect(throws: ClientMessageError.notHandled(label.id, .click)) { try document.handle(.event(id: label.id, .click, sequence: 2)) }
    }

    @Test func aDisabledButtonIgnoresAClick() throws {
        let button = Button("Go")
        var presses = 0
        button.onPress = { presses += 1 }
        button.isEnabled = false
        let document = page([button])
        try document.handle(.event(id: button.id, .click, sequence: 1))
        #expect(presses == 0)
    }

    @Test func segmentsSelectByClick() throws {
        let segments = SegmentedControl(["A", "B", "C"])
        let property = MutableProperty(0)
        let document = page([segments])
        segments.bind(to: property)
        try document.handle(.event(id: segments.children[2].id, .click, sequence: 1))
        #expect(property.value == 2)
        #expect(segments.children[2].attribute("aria-selected") == "true")
        #expect(segments.children[0].attribute("aria-selected") == "false")
    }

    @Test func replacedChildrenLeaveTheDocument() {
        let old = Label("old")
        let box = Stack(.vertical, [old])
        let document = page([box])
        let oldID = old.id
        box.setChildren([Label("new")])
        #expect(document.element(oldID) == nil)
        #expect(old.document == nil)
        #expect(document.pendingPatches.count == 1)
        if case .children(let id, let html) = document.pendingPatches[0] {
            #expect(id == box.id)
            #expect(html.contains(">new<"))
        } else {
            Issue.record("expected a children patch")
        }
    }

    /// The screens' addresses are asked before every frame: a change of them alone (the same
    /// depth and title, nothing else said) is sent with the next frame, once; a `nil` (still
    /// being built) sends nothing; the same addresses again send nothing.
    @Test func aChangeOfTheAddressesAloneIsSentOnce() throws {
        let document = page([])
        let box = Element("div")
        document.root.append(box)
        var current: [WebLocation]? = [WebLocation(path: "/"), WebLocation(path: "/flickr")]
        document.locations = { current }
        document.setHistory(depth: 2, title: "Flickr Search")
        func historyIn(_ frame: String?) -> String? {
            guard let frame, let start = frame.range(of: "[\"h\",") else { return nil }
            return String(frame[start.lowerBound...])
        }
        let first = try #require(historyIn(document.flush()))
        #expect(first.contains("\"/flickr\""))
        box.setAttribute("class", "a")
        #expect(historyIn(document.flush()) == nil, "the same addresses are not sent again")
        current = [WebLocation(path: "/"), WebLocation(path: "/flickr/results", query: [.init("q", "cats")])]
        box.setAttribute("class", "b")
        let changed = try #require(historyIn(document.flush()), "a change of the addresses alone is sent")
        #expect(changed.contains("/flickr/results?q=cats"))
        box.setAttribute("class", "c")
        #expect(historyIn(document.flush()) == nil, "and sent once")
        current = nil
        box.setAttribute("class", "d")
        #expect(historyIn(document.flush()) == nil, "nothing while the screens are being built")
        current = [WebLocation(path: "/"), WebLocation(path: "/flickr")]
        #expect(historyIn(document.flush())?.contains("\"/flickr\"") == true, "back to the first addresses: sent")
        #expect(document.sentLocations == ["/", "/flickr"])
    }

    /// Review finding: a dialog outlived the page it was shown over; Esc ran its button's action.
    @Test func aDialogGoesWithItsPageAndEscDoesNotRunItsAction() throws {
        let document = page([])
        document.setHistory(depth: 2, title: "Login")
        var dismissed = false
        document.present(title: "Live mode needs an API key", message: "…", button: "Continue offline", onDismiss: { dismissed = true })
        try document.handle(.event(id: document.dialogs[0].id, .click, sequence: 1))  // Esc
        #expect(document.dialogs.isEmpty)
        #expect(!dismissed)
        document.present(title: "Login failed", message: "…")
        document.setHistory(depth: 2, title: "Login (again)")
        #expect(document.dialogs.count == 1)
        document.setHistory(depth: 1, title: "Launcher")                          // Back
        #expect(document.dialogs.isEmpty)
    }

    @Test func dialogsShowAndDismiss() throws {
        let document = page([])
        var dismissed = false
        document.present(title: "Connection Error", message: "Offline", onDismiss: { dismissed = true })
        #expect(document.dialogs.count == 1)
        #expect(document.bodyHTML.contains("Connection Error"))
        let button = document.dialogs[0].button
        try document.handle(.event(id: button.id, .click, sequence: 1))
        #expect(dismissed)
        #expect(document.dialogs.isEmpty)
    }
}
