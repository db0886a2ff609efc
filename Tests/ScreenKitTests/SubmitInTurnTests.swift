import MVVM
import ScreenKit
import Signals
import Testing
import WebUI

/// T-BEYOND4, T-UI4 (issue 57): a field whose Enter hands its text on (`clearsOnSubmit`) and an action that queues:
/// in the browser the page is told to empty the field as it sends the Enter, the action's button
/// is never busy (a press while it runs waits its turn), and Enters that come while the action
/// runs are all applied, in order.
@MainActor
@Suite struct SubmitInTurnTests {
    final class Model: Sendable {
        let title = MutableProperty("")
        let added = Locked<[String]>([])
        let finish = PublishSubject<Void, Never>()
        let add: Action<Void, String, Never>

        init() {
            let (title, added, finish) = (title, added, finish)
            add = Action(enabledIf: title.map { !$0.isEmpty }, whileExecuting: .queue) { _ in
                let text = title.value
                title.value = ""
                // Each add runs until `finish` sends (a database that takes its time).
                return finish.signal.prefix(1).map { _ in
                    added.withLock { $0.append(text) }
                    return text
                }
            }
        }
    }

    @Test func enterWhileTheAddRunsWaitsItsTurnAndThePageEmptiesTheField() throws {
        let model = Model()
        let screen = ScreenKit.Screen("To-dos") {
            TextField("New to-do", text: model.title, onSubmit: model.add, clearsOnSubmit: true)
            Button("Add", action: model.add)
        }
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: screen).content
        document.root.setChildren([content])
        let field = try #require(Self.find(content) { $0.attribute("placeholder") != nil })
        let button = try #require(Self.find(content) { $0.tag == "button" })
        #expect(field.attribute("data-mvvm-clears") == "", "the page is told to empty the field on Enter")
        var n = 0
        func send(_ json: String) throws {
            n += 1
            try document.handle(ClientMessage.parse(json.replacingOccurrences(of: "N", with: "\(n)")))
        }
        try send(#"{"t":"i","id":"\#(field.id)","v":"milk","n":N}"#)
        try send(#"{"t":"s","id":"\#(field.id)","n":N}"#)
        #expect(model.add.isExecuting.value)
        #expect(button.attribute("aria-busy") == nil, "an action that queues takes a press while it runs")
        try send(#"{"t":"i","id":"\#(field.id)","v":"tea","n":N}"#)
        try send(#"{"t":"s","id":"\#(field.id)","n":N}"#)
        try send(#"{"t":"i","id":"\#(field.id)","v":"jam","n":N}"#)
        try send(#"{"t":"c","id":"\#(button.id)","n":N}"#)
        #expect(model.title.value == "", "each Enter took the field's text at once")
        // The Enters' clears are not sent (the page emptied the field itself); the click's is.
        let values = document.pendingPatches.filter { if case .value = $0 { true } else { false } }
        #expect(values == [.value(field.id, "")])
        for _ in 0..<3 { model.finish.send(()) }
        #expect(model.added.value == ["milk", "tea", "jam"], "all three, apart, in order")
        #expect(!model.add.isExecuting.value)
    }

    static func find(_ element: WebUI.Element, _ matches: (WebUI.Element) -> Bool) -> WebUI.Element? {
        if matches(element) { return element }
        for child in element.children {
            if let found = find(child, matches) { return found }
        }
        return nil
    }
}
