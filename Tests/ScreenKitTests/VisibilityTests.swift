import MVVM
import ScreenKit
import Signals
import SignalsTesting
import Testing
import WebUI

/// Issue 43: a visibility combined with another (two `visible(when:)`), and with a text's
/// emptiness, in every combination and as the conditions change: the description, its hidden
/// signal, plain text and the browser's document agree.
@MainActor
@Suite struct VisibilityTests {
    struct Case: CustomStringConvertible, Sendable {
        var first: Bool, second: Bool, text: String
        var description: String { "first \(first), second \(second), text \(text.debugDescription)" }
        var shown: Bool { first && second && !text.isEmpty }
    }

    nonisolated static let cases = [true, false].flatMap { a in [true, false].flatMap { b in ["", "Hi"].map { Case(first: a, second: b, text: $0) } } }

    @Test(arguments: cases, cases)
    func twoConditionsAndAnEmptyTextCombineAsAnd(start: Case, end: Case) {
        let first = MutableProperty(start.first), second = MutableProperty(start.second), text = MutableProperty(start.text)
        let element = Text(text).visible(when: first).visible(when: second)
        let hidden = Recorder<Bool, Never>()
        hidden.subscribe(to: element.hidden!)
        let screen = Screen("V") { element }
        let document = Document()
        document.flushesAutomatically = false
        let page = WebUI.ScreenRenderer.page(for: screen)
        document.root.setChildren([page.content])
        func check(_ now: Case) {
            #expect(element.isVisible == (now.first && now.second), "\(now)")
            #expect(hidden.recordedValues.last == !now.shown, "\(now)")
            #expect(PlainText.render(screen).contains("Hi") == now.shown, "\(now)")
            let drawn = page.content.children[0]
            let html = document.render().html
            #expect((!drawn.isHidden && html.contains(">Hi<")) == now.shown, "\(now): \(html)")
        }
        check(start)
        first.value = end.first
        second.value = end.second
        text.value = end.text
        check(end)
    }
}
