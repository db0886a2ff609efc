import Foundation
import MVVM
import Signals
import Synchronization
import Testing
import WebUITestSupport
@testable import WebUI

// The code of 'Events from any element' (Sources/WebUI/WebUI.docc/EventsFromAnyElement.md),
// compiled and run (issue 32); the last test checks that every swift block of the article is in
// this file.

/// A review: 0 to 5 stars, and a size.
final class ReviewViewModel: Sendable {
    let stars = MutableProperty(0)
    let size = MutableProperty("M")
}

/// Two elements no widget draws: each asks the page for its events.
func reviewControls(_ viewModel: ReviewViewModel) -> [Element] {
    let stars = Element("div", ["role": "slider", "tabindex": "0", "aria-label": "Stars", "class": "stars"])
    viewModel.stars.signal
        .map { String(repeating: "★", count: $0) + String(repeating: "☆", count: 5 - $0) }
        .bind(to: stars, \.text)
    stars.on(.click, keys: ["ArrowLeft", "ArrowRight"]) { event in
        switch event {
        case .click: viewModel.stars.value = viewModel.stars.value % 5 + 1
        case .key("ArrowLeft"): viewModel.stars.value = max(0, viewModel.stars.value - 1)
        case .key("ArrowRight"): viewModel.stars.value = min(5, viewModel.stars.value + 1)
        default: break
        }
    }
    let size = Element("select", ["aria-label": "Size"], children: ["S", "M", "L"].map { Element("option", ["value": $0], text: $0) })
    size.on(.change) { event in
        if case .change(let value) = event { viewModel.size.value = value }
    }
    return [stars, size]
}

@MainActor
@Suite struct EventsArticleTests {
    /// The page is told what each element asks for; a click, a key press and a change reach the
    /// closures (and the patches go back); what an element did not ask for is refused.
    @Test func anElementOfYourOwnGetsWhatItAskedFor() throws {
        let document = Document()
        document.flushesAutomatically = false
        let viewModel = ReviewViewModel()
        let controls = reviewControls(viewModel)
        document.root.setChildren(controls)
        let (stars, size) = (controls[0], controls[1])
        let html = document.root.html
        #expect(html.contains(#"data-mvvm-on="click""#) && html.contains(#"data-mvvm-keys="ArrowLeft ArrowRight""#), "\(html)")
        #expect(html.contains(#"data-mvvm-on="change""#))
        #expect(stars.text == "☆☆☆☆☆")
        func send(_ json: String) throws(ClientMessageError) { try document.handle(ClientMessage.parse(json)) }
        try send(#"{"t":"c","id":"\#(stars.id)","n":1}"#)
        try send(#"{"t":"c","id":"\#(stars.id)","n":2}"#)
        #expect(viewModel.stars.value == 2 && stars.text == "★★☆☆☆")
        try send(#"{"t":"k","id":"\#(stars.id)","v":"ArrowRight","n":3}"#)
        try send(#"{"t":"k","id":"\#(stars.id)","v":"ArrowLeft","n":4}"#)
        try send(#"{"t":"k","id":"\#(stars.id)","v":"ArrowLeft","n":5}"#)
        #expect(viewModel.stars.value == 1)
        try send(#"{"t":"g","id":"\#(size.id)","v":"L","n":6}"#)
        #expect(viewModel.size.value == "L")
        // Not asked for: a key the stars did not name, a click on the select, a change on the stars.
        #expect(throws: ClientMessageError.notHandled(stars.id, .key("Escape"))) { try send(#"{"t":"k","id":"\#(stars.id)","v":"Escape","n":7}"#) }
        #expect(throws: ClientMessageError.notHandled(size.id, .click)) { try send(#"{"t":"c","id":"\#(size.id)","n":8}"#) }
        #expect(throws: ClientMessageError.notHandled(stars.id, .change("3"))) { try send(#"{"t":"g","id":"\#(stars.id)","v":"3","n":9}"#) }
        #expect(viewModel.stars.value == 1 && viewModel.size.value == "L")
        // Malformed: a key press without a key, a key name too long.
        #expect(throws: ClientMessageError.self) { try send(#"{"t":"k","id":"\#(stars.id)","n":10}"#) }
        #expect(throws: ClientMessageError.self) { try send(#"{"t":"k","id":"\#(stars.id)","v":"\#(String(repeating: "x", count: 33))","n":11}"#) }
        // Asking again replaces what was asked for.
        stars.on([]) { _ in }
        #expect(stars.attribute("data-mvvm-on") == nil && stars.attribute("data-mvvm-keys") == nil)
        #expect(throws: ClientMessageError.notHandled(stars.id, .click)) { try send(#"{"t":"c","id":"\#(stars.id)","n":12}"#) }
    }

    /// A form that asked for its submit gets it (the page sends it instead of navigating).
    @Test func aFormGetsItsSubmit() throws {
        let document = Document()
        document.flushesAutomatically = false
        let form = Element("form")
        var submitted = 0
        form.on(.submit) { event in if event == .submit { submitted += 1 } }
        document.root.setChildren([form])
        #expect(form.attribute("data-mvvm-on") == "submit")
        try document.handle(ClientMessage.parse(#"{"t":"s","id":"\#(form.id)","n":1}"#))
        #expect(submitted == 1)
        #expect(throws: ClientMessageError.notHandled(form.id, .click)) { try document.handle(ClientMessage.parse(#"{"t":"c","id":"\#(form.id)","n":2}"#)) }
    }

    @Test func articleCodeIsThisFile() throws {
        let (count, missing) = try ArticleCode.blocksMissing(from: ["Tests/WebUITests/EventsArticleTests.swift"], article: "Sources/WebUI/WebUI.docc/EventsFromAnyElement.md")
        #expect(count == 1)
        for block in missing {
            Issue.record("this block of EventsFromAnyElement.md is in none of EventsArticleTests.swift:\n\(block)")
        }
    }
}
