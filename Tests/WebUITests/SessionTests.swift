import MVVM
import Signals
import SignalsTesting
import Synchronization
import Testing
@testable import WebUI
import WebUITestSupport

/// A session's content for tests: one label and a field.
final class Counter: WebSessionContent {
    let label = Label("0")
    let field = TextField()
    let text = MutableProperty("")
    var count = 0
    var closed = false

    init(_ document: Document) {
        document.root.setChildren([label, field])
        field.bind(to: text)
    }

    func bump() {
        count += 1
        label.text = String(count)
    }

    func close() { closed = true }

    /// A view model the test may leak on purpose.
    var viewModel: AnyObject? = MutableProperty(0)
    var ownedObjects: [AnyObject] { viewModel.map { [$0] } ?? [] }
}

@MainActor
@Suite struct SessionTests {
    var contents: [Counter] = []

    func sessions(grace: Duration = .seconds(30), messagesPerSecond: Int? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) -> (WebSessions, () -> Counter?) {
        // Weak: the test must not keep a closed session's content alive.
        // SAFETY: set and read on the main actor only (the sessions are opened there).
        final class Last: @unchecked Sendable { weak var counter: Counter? }
        let last = Last()
        var limits = WebSessions.Limits(sessions: 3, reconnectGrace: grace)
        if let messagesPerSecond {
            limits.messagesPerSecond = messagesPerSecond
            limits.messageBurst = messagesPerSecond * 2
        }
        let sessions = WebSessions(limits: limits, log: log) { document in
            document.flushesAutomatically = false
            let counter = Counter(document)
            last.counter = counter
            return counter
        }
        return (sessions, { last.counter })
    }

    /// A session closed after its grace period says why: a page that never came, or a page that
    /// left (a tab closed) and did not come back.
    @Test func aSessionClosedAfterItsGraceSaysWhetherItsPageCameAtAll() async throws {
        let logged = Mutex<[String]>([])
        let (sessions, _) = sessions(grace: .milliseconds(50), log: { line in logged.withLock { $0.append(line) } })
        let never = try #require(sessions.open())
        let left = try #require(sessions.open())
        let token = left.connect(send: Wire().send)
        left.receive(#"{"t":"hello","s":"\#(left.id)","q":\#(left.document.render().frame)}"#, token: token)
        left.disconnect(token: token)
        let started = ContinuousClock.now
        while !(never.isClosed && left.isClosed), ContinuousClock.now - started < .seconds(10) { try await Task.sleep(for: .milliseconds(20)) }
        let lines = logged.withLock { $0 }
        #expect(lines.contains { $0.contains(never.id.prefix(8)) && $0.contains("closed: no page connected within") }, "\(lines)")
        #expect(lines.contains { $0.contains(left.id.prefix(8)) && $0.contains("closed: its page left and did not come back within") }, "\(lines)")
    }

    @Test func aReconnectingPageGetsTheFramesItMissed() throws {
        let (sessions, content) = sessions()
        let session = try #require(sessions.open())
        let first = session.document.render().frame
        let counter = try #require(content())
        let wire = Wire()
        let token = session.connect(send: wire.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(first)}"#, token: token)
        #expect(wire.take().isEmpty)
        counter.bump(); session.document.flush()
        #expect(wire.take().count == 1)
        let seen = session.document.frameNumber
        session.disconnect(token: token)
        counter.bump(); session.document.flush()
        counter.bump(); session.document.flush()
        // The page applied frame `seen`; it gets the two after it, in order.
        let again = Wire()
        let token2 = session.connect(send: again.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(seen)}"#, token: token2)
        let model = PageModel(html: "")
        let frames = again.take()
        #expect(frames.count == 2)
        #expect(frames.allSatisfy { $0.contains("\"t\":\"p\"") })
        _ = model
        #expect(frames.last!.contains("\"3\""))
    }

    /// Issue 41 (≤ 40 KB a tab): a frame the page says it applied (a message's `q`, or its
    /// "a" when it has nothing else to send) is forgotten, not kept for a reconnect; one it has
    /// not said so of is kept. A forged number forgets them all, and its page still catches up
    /// with the whole page on its next reconnect, never silenced.
    @Test func framesThePageSaysItAppliedAreForgotten() throws {
        let (sessions, content) = sessions()
        let session = try #require(sessions.open())
        let first = session.document.render().frame
        let counter = try #require(content())
        let wire = Wire()
        let token = session.connect(send: wire.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(first)}"#, token: token)
        for _ in 0..<3 { counter.bump(); session.document.flush() }
        #expect(session.keptFrameCount == 3)
        let last = session.document.frameNumber
        session.receive(#"{"t":"a","q":\#(last - 2)}"#, token: token)
        #expect(session.keptFrameCount == 2, "frame \(last - 2) and those before it are forgotten, not one more")
        session.receive(#"{"t":"a","q":\#(last - 2)}"#, token: token)
        #expect(session.keptFrameCount == 2)
        session.receive(#"{"t":"i","id":"\#(counter.field.id)","v":"x","n":1,"q":\#(last - 1)}"#, token: token)
        #expect(counter.text.value == "x", "the message itself is handled")
        #expect(session.keptFrameCount == 1, "frame \(last) is kept, those before it are forgotten")
        session.receive(#"{"t":"a","q":-1}"#, token: token)
        #expect(session.keptFrameCount == 1, "a negative number is refused")
        // A message resent after a reconnect (already handled) says what the page had then, or,
        // for a page resumed after a restart, a frame of its old session: it forgets nothing.
        session.receive(#"{"t":"i","id":"\#(counter.field.id)","v":"x","n":1,"q":\#(last + 50)}"#, token: token)
        #expect(session.keptFrameCount == 1, "a resent message's frame number is not taken")
        // Forged: far past the last frame. Every kept frame goes; a reconnect from an older
        // frame gets the whole page.
        session.receive(#"{"t":"a","q":9007199254740991}"#, token: token)
        #expect(session.keptFrameCount == 0)
        counter.bump(); session.document.flush()
        _ = wire.take()
        session.disconnect(token: token)
        let again = Wire()
        let token2 = session.connect(send: again.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(last - 2)}"#, token: token2)
        let model = PageModel(html: "")
        let frames = again.take()
        #expect(frames.count == 1)
        #expect(model.apply(frame: try #require(frames.first)))
        #expect(model.html == session.document.bodyHTML)
        session.receive(#"{"t":"i","id":"\#(counter.field.id)","v":"still heard","n":2}"#, token: token2)
        #expect(counter.text.value == "still heard")
    }

    @Test func aPageTooFarBehindGetsTheWholePage() throws {
        let (sessions, content) = sessions()
        let session = try #require(sessions.open())
        _ = session.document.render()
        let counter = try #require(content())
        for _ in 0..<300 { counter.bump(); session.document.flush() }  // more than are kept
        let wire = Wire()
        let token = session.connect(send: wire.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":1}"#, token: token)
        let frames = wire.take()
        #expect(frames.count == 1)
        let model = PageModel(html: "")
        #expect(model.apply(frame: try #require(frames.first)))
        #expect(model.html == session.document.bodyHTML)
        #expect(model.html.contains(">300<"))
    }

    /// Generated cases: the page drops its connection at random moments while the server keeps
    /// changing; whatever it missed, after each reconnect its page equals the server's.
    @Test func afterAnyDropThePageCatchesUp() throws {
        for round in 0..<50 {
            let (sessions, content) = sessions()
            let session = try #require(sessions.open())
            let (html, first) = session.document.render()
            let counter = try #require(content())
            let model = PageModel(html: html)
            var applied = first
            var wire = Wire()
            var token = session.connect(send: wire.send)
            session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(applied)}"#, token: token)
            var connected = true
            for step in 0..<Int.random(in: 5...400) {
                if Bool.random() { counter.bump() } else { counter.field.value = "v\(round)-\(step)" }
                if Int.random(in: 0..<3) == 0 { session.document.flush() }
                if connected {
                    // Sometimes the connection drops with frames still in flight: they are lost.
                    if Int.random(in: 0..<20) == 0 {
                        let frames = wire.take()
                        for frame in frames.prefix(Int.random(in: 0...frames.count)) where model.apply(frame: frame) { applied = model.frame }
                        session.disconnect(token: token)
                        connected = false
                    } else {
                        for frame in wire.take() where model.apply(frame: frame) { applied = model.frame }
                        // Sometimes the page says which frames it applied: the server forgets
                        // them, and a later reconnect still finds what came after.
                        if Int.random(in: 0..<4) == 0 {
                            session.receive(#"{"t":"a","q":\#(applied)}"#, token: token)
                        }
                    }
                } else if Int.random(in: 0..<10) == 0 {
                    wire = Wire()
                    token = session.connect(send: wire.send)
                    session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(applied)}"#, token: token)
                    connected = true
                    for frame in wire.take() where model.apply(frame: frame) { applied = model.frame }
                    #expect(model.html == session.document.bodyHTML, "round \(round), step \(step)")
                    #expect(model.gaps == 0)
                }
            }
            session.close()
        }
    }

    @Test func messagesForAnotherSessionAndGarbageAreRefusedAndLogged() throws {
        let logged = Mutex<[String]>([])
        let (sessions, content) = sessions(log: { line in logged.withLock { $0.append(line) } })
        let session = try #require(sessions.open())
        let counter = try #require(content())
        let wire = Wire()
        let token = session.connect(send: wire.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
        let field = counter.field.id
        let inputs = [
            "not json",
            "[1,2,3]",
            #"{"t":"i","id":"\#(field)","v":"x","s":"0123456789abcdef0123456789abcdef","n":1}"#,
            #"{"t":"i","id":"e999","v":"x","n":2}"#,
            #"{"t":"zz","n":3}"#,
            #"{"t":"i","id":"\#(field)","n":4}"#,
            #"{"t":"v","id":"\#(field)","f":5,"l":2,"n":5}"#,
            #"{"t":"b","d":0}"#,
            String(repeating: "x", count: 64 * 1024 + 1),
            #"{"t":"i","id":"\#(field)","v":"\#(String(repeating: "y", count: ClientMessage.maximumValueLength + 1))","n":6}"#,
            #"{"t":"hello","s":"another","q":0}"#,
        ]
        for input in inputs { session.receive(input, token: token) }
        #expect(counter.text.value == "")
        let lines = logged.withLock { $0 }
        #expect(lines.count == inputs.count, "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.contains("refused") })
        #expect(lines[2].contains("another session"))
        #expect(lines[3].contains("no element"))
        // Not JSON (a message's size is its transport's to limit: the server's messageBytes).
        #expect(lines[8].contains("malformed"))
        // A refused message with a number is acknowledged (the page stops waiting for it).
        #expect(session.document.acknowledged == 6)
        // The page still works.
        session.receive(#"{"t":"i","id":"\#(field)","v":"ok","n":7}"#, token: token)
        #expect(counter.text.value == "ok")
    }

    /// T-BEYOND4, issue 27: a tab that floods its session has the excess refused, and logged (not once
    /// per message); the budget refills, and the page works again.
    @Test func aFloodOfMessagesIsCutToTheRate() async throws {
        let logged = Mutex<[String]>([])
        let (sessions, content) = sessions(messagesPerSecond: 50, log: { line in logged.withLock { $0.append(line) } })
        let session = try #require(sessions.open())
        let counter = try #require(content())
        let wire = Wire()
        let token = session.connect(send: wire.send)
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
        let field = counter.field.id
        let changes = Mutex(0)
        let counting = counter.text.changes.sink { _ in changes.withLock { $0 += 1 } }
        defer { counting.dispose() }
        let clock = ContinuousClock()
        let started = clock.now
        for number in 1...10_000 {
            session.receive(#"{"t":"i","id":"\#(field)","v":"\#(number)","n":\#(number)}"#, token: token)
        }
        let seconds = Double((clock.now - started).components.attoseconds) / 1e18 + Double((clock.now - started).components.seconds)
        let handled = changes.withLock { $0 }
        // The burst (100, less the hello) and what refilled while the flood ran.
        #expect(handled >= 99 && Double(handled) <= 100 + 50 * seconds + 1, "\(handled) handled in \(seconds) s")
        let lines = logged.withLock { $0 }
        #expect(!lines.isEmpty && lines.count <= 2 + Int(seconds), "\(lines.count) lines: \(lines.prefix(3))")
        #expect(lines.first?.contains("over the limit of 50 a second") == true, "\(lines.first ?? "")")
        try await Task.sleep(for: .milliseconds(200))
        session.receive(#"{"t":"i","id":"\#(field)","v":"after","n":10001}"#, token: token)
        #expect(counter.text.value == "after", "the budget refills")
    }

    @Test func aStaleConnectionCannotDriveTheSession() throws {
        let (sessions, content) = sessions()
        let session = try #require(sessions.open())
        let counter = try #require(content())
        let closed = Mutex(false)
        let old = session.connect(send: { _ in }, close: { closed.withLock { $0 = true } })
        let new = session.connect(send: { _ in })
        #expect(closed.withLock { $0 })
        session.receive(#"{"t":"i","id":"\#(counter.field.id)","v":"from old","n":1}"#, token: old)
        #expect(counter.text.value == "")
        session.receive(#"{"t":"i","id":"\#(counter.field.id)","v":"from new","n":1}"#, token: new)
        #expect(counter.text.value == "from new")
    }

    @Test func byeClosesTheSessionAndFreesItsPage() throws {
        let (sessions, content) = sessions()
        let tracker = LeakTracker()
        do {
            let session = try #require(sessions.open())
            let counter = try #require(content())
            tracker.track(object: counter, name: "content")
            tracker.track(object: session.document, name: "document")
            tracker.track(object: counter.field, name: "field")
            tracker.track(object: counter.text, name: "view model property")
            let token = session.connect(send: { _ in })
            session.receive(#"{"t":"bye"}"#, token: token)
            #expect(counter.closed)
            #expect(session.isClosed)
            #expect(sessions.openCount == 0)
        }
        try tracker.verify()
        #expect(sessions.leakedCount == 0)
        #expect(sessions.closedCount == 1)
    }

    /// Review finding: the leak count could not see a view model kept alive after closing.
    @Test func aViewModelKeptAliveAfterClosingIsCountedAsLeaked() throws {
        let (sessions, content) = sessions()
        var kept: AnyObject?
        do {
            let session = try #require(sessions.open())
            kept = try #require(content()).viewModel
            session.close()
        }
        #expect(sessions.leakedCount == 1)
        kept = nil
        #expect(sessions.leakedCount == 0)
        _ = kept
    }

    /// Waits until `condition` holds (the grace's timer fired), for 30 s at most: on a loaded
    /// machine the timer may fire long after its 50 ms.
    static func waitUntil(_ condition: @autoclosure () -> Bool) async throws {
        let clock = ContinuousClock(), started = clock.now
        while !condition(), clock.now - started < .seconds(30) { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aDroppedPageThatDoesNotComeBackIsClosedAfterTheGrace() async throws {
        let (sessions, _) = sessions(grace: .milliseconds(50))
        let session = try #require(sessions.open())
        let token = session.connect(send: { _ in })
        session.disconnect(token: token)
        #expect(!session.isClosed)
        try await Self.waitUntil(session.isClosed)
        #expect(session.isClosed)
        #expect(sessions.openCount == 0)
    }

    @Test func aSessionWhosePageNeverConnectsIsClosed() async throws {
        let (sessions, _) = sessions(grace: .milliseconds(50))
        let session = try #require(sessions.open())
        _ = PageShell.html(for: session)
        try await Self.waitUntil(session.isClosed)
        #expect(session.isClosed)
        #expect(sessions.openCount == 0)
    }

    @Test func aPageThatReconnectsInTimeKeepsItsSession() async throws {
        let (sessions, _) = sessions(grace: .milliseconds(100))
        let session = try #require(sessions.open())
        let token = session.connect(send: { _ in })
        session.disconnect(token: token)
        _ = session.connect(send: { _ in })
        try await Task.sleep(for: .milliseconds(300))
        #expect(!session.isClosed)
    }

    /// At the limit, a session no page ever connected to gives way to a new tab; sessions with
    /// pages do not, and a new tab is then refused.
    @Test func theLimitEvictsOnlySessionsNoPageConnectedTo() throws {
        let (sessions, _) = sessions()
        let first = (0..<3).compactMap { _ in sessions.open() }
        #expect(Set(first.map(\.id)).count == 3)
        #expect(first.allSatisfy { $0.id.count == 32 })
        for session in first.dropFirst() {
            let token = session.connect(send: { _ in })
            session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
        }
        // The first never had a page: it gives way.
        let fourth = try #require(sessions.open())
        #expect(first[0].isClosed)
        #expect(sessions.openCount == 3)
        // The fourth has not connected either: it gives way to the fifth.
        #expect(sessions.open() != nil)
        #expect(fourth.isClosed)
        // Every session with a page stays; once all have one, a new tab is refused.
        for session in [first[1], first[2]] { #expect(!session.isClosed) }
        let last = try #require(sessions.session(sessions.ids.first { $0 != first[1].id && $0 != first[2].id }!))
        let token = last.connect(send: { _ in })
        last.receive(#"{"t":"hello","s":"\#(last.id)","q":0}"#, token: token)
        #expect(sessions.open() == nil)
    }
}
