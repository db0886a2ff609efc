import Signals
import Testing
@testable import WebUI

/// T-BEYOND4 (issue 57), the rules on the less-travelled paths: a page resends what it has not seen
/// acknowledged (after a reconnect, every message since its last acknowledgement), so every kind
/// of message must be handled once however often it comes — a click or an Enter, a Back, a
/// navigation — and the acknowledgement never moves back, also through the paths that take a
/// message without handling it (a refused one, a resumed page's).
@MainActor
@Suite struct ResentMessageTests {
    /// Generated: 40 messages of random kinds, each either new (the next number) or one sent
    /// before, again (a resend after a reconnect, or a duplicate on the wire).
    @Test(arguments: 0..<8) func everyKindIsHandledOnceHoweverOftenItComes(seed: Int) throws {
        let button = Button("Go")
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([button])
        _ = document.render()
        let handled = Locked<[String: Int]>([:])
        button.onPress = { handled.withLock { $0["click", default: 0] += 1 } }
        document.onBack = { _ in handled.withLock { $0["back", default: 0] += 1 } }
        document.onNavigate = { _, _ in handled.withLock { $0["navigate", default: 0] += 1 } }

        var random = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ below: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(below))
        }
        var sent: [(kind: String, text: String)] = []
        var expected: [String: Int] = [:]
        for _ in 0..<40 {
            if !sent.isEmpty, next(3) == 0 {
                let again = sent[next(sent.count)]
                try document.handle(ClientMessage.parse(again.text))
            } else {
                let n = sent.count + 1
                let kind = ["click", "back", "navigate"][next(3)]
                let text = switch kind {
                case "click": #"{"t":"c","id":"\#(button.id)","n":\#(n)}"#
                case "back": #"{"t":"b","d":1,"n":\#(n)}"#
                default: #"{"t":"u","d":2,"p":"/goods/\#(n)","n":\#(n)}"#
                }
                sent.append((kind, text))
                expected[kind, default: 0] += 1
                try document.handle(ClientMessage.parse(text))
            }
            #expect(document.acknowledged == sent.count, "the acknowledgement is the highest message handled, never lower")
        }
        #expect(handled.value == expected, "each message handled once")
    }

    /// A message taken without being handled (refused, or meant for a resumed page's old
    /// session) moves the acknowledgement forward, never back.
    @Test func takingAMessageWithoutHandlingItNeverMovesTheAcknowledgementBack() throws {
        let document = Document()
        document.flushesAutomatically = false
        try document.handle(ClientMessage.parse(#"{"t":"b","d":1,"n":10}"#))
        #expect(document.acknowledged == 10)
        document.skipMessages(through: 4)
        document.acknowledge(7)
        #expect(document.acknowledged == 10)
        document.skipMessages(through: 12)
        #expect(document.acknowledged == 12)
        document.acknowledge(15)
        #expect(document.acknowledged == 15)
        document.acknowledge(15)
        #expect(document.acknowledged == 15)
    }
}
