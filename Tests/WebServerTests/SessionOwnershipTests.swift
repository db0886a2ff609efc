// Issue 41, T-BEYOND4 (input from the page is untrusted; one session per tab): a session belongs
// to the browser that opened it, no message can silence it, and one
// address cannot hold every session.
#if WebServer
import Foundation
import Synchronization
import Testing
@testable import WebServer
@testable import WebUI

@Suite struct SessionOwnershipTests {
    let owner = String(repeating: "a", count: 32)
    let other = String(repeating: "b", count: 32)

    /// A page's connection: its messages in, the server's out.
    struct Page {
        let input: AsyncStream<SocketMessage>.Continuation
        var output: AsyncStream<SocketMessage>.AsyncIterator

        init(_ sessions: WebSessions, browser: String?, log: Lines) {
            let (client, input) = AsyncStream<SocketMessage>.makeStream()
            self.input = input
            output = SessionSocket.messages(sessions: sessions, browser: browser, log: log.append, for: client).makeAsyncIterator()
            // A wait that a broken rule would make endless ends here, and the test fails. Long:
            // beside the whole suite, whose blocking tests hold the main actor for tens of
            // seconds, a page's messages can wait that long (seen: over 20 s in CI).
            Task { [input] in
                try? await Task.sleep(for: .seconds(90))
                input.finish()
            }
        }

        func send(_ text: String) { input.yield(.text(text)) }

        /// Waits for the frame that acknowledges message `number`; false if the socket ends first.
        mutating func acknowledged(_ number: Int) async -> Bool {
            while let message = await output.next() {
                guard case .text(let frame) = message, let range = frame.range(of: #""a":"#) else { continue }
                if let seen = Int(frame[range.upperBound...].prefix { $0.isNumber }), seen >= number { return true }
            }
            return false
        }

        /// Everything until the socket closes.
        mutating func rest() async -> [SocketMessage] {
            var all: [SocketMessage] = []
            while let message = await output.next() { all.append(message) }
            return all
        }
    }

    @MainActor
    func openEcho(_ log: Lines, owner: String?) throws -> (WebSessions, WebSession, String, Box) {
        let box = Box()
        let sessions = WebSessions(limits: .init(sessions: 8, reconnectGrace: .seconds(60)), log: log.append) { document in
            let echo = Echo(document)
            box.echo = echo
            return echo
        }
        guard case .opened(let session) = sessions.open(at: .root, owner: owner) else { throw CancellationError() }
        return (sessions, session, try #require(box.echo?.field.id), box)
    }


    /// A second browser that presents the victim's session id (its own cookie, or none) is
    /// refused and told why; the victim's connection is not replaced and keeps working.
    @Test func aSessionAnswersOnlyToTheBrowserThatOpenedIt() async throws {
        let log = Lines()
        let (sessions, session, field, box) = try await openEcho(log, owner: owner)
        let id = session.id
        var victim = Page(sessions, browser: owner, log: log)
        victim.send(#"{"t":"hello","s":"\#(id)","q":0}"#)
        victim.send(#"{"t":"i","id":"\#(field)","v":"Ada","n":1}"#)
        #expect(await victim.acknowledged(1))
        for browser in [other, nil] {
            var attacker = Page(sessions, browser: browser, log: log)
            attacker.send(#"{"t":"hello","s":"\#(id)","q":0}"#)
            attacker.send(#"{"t":"c","id":"e1","n":1}"#)
            // The refusal comes first, or the test ends here (an accepted socket would stay open
            // until the guard's 90 s).
            let refusal = await attacker.output.next()
            guard case .text(let text) = refusal, text.contains("belongs to another browser") else {
                Issue.record("the second browser was not refused: \(String(describing: refusal))")
                attacker.input.finish()
                victim.input.finish()
                return
            }
            #expect(await attacker.rest() == [.close(SocketMessage.policyViolation)])
        }
        victim.send(#"{"t":"i","id":"\#(field)","v":"Ada L","n":2}"#)
        #expect(await victim.acknowledged(2))
        #expect(box.echo?.text.value == "Ada L")
        #expect(session.isConnected)
        #expect(!log.all.contains { $0.contains("replaces the old one") }, "\(log.all)")
        #expect(log.all.filter { $0.contains("belongs to another browser") }.count == 2, "\(log.all)")
        victim.input.finish()
    }

    /// Issue 57: a second socket of the same browser that says hello for a tab's session (a
    /// duplicated tab, one that knew the id) takes the session over, and the first tab is told
    /// why it stopped before its socket is closed, so that it does not go on out of step with what
    /// the second one does (nor reconnect and fight for it).
    @Test func aTabWhoseSessionAnotherTookOverIsToldWhy() async throws {
        let log = Lines()
        let (sessions, session, field, box) = try await openEcho(log, owner: owner)
        let id = session.id
        var first = Page(sessions, browser: owner, log: log)
        first.send(#"{"t":"hello","s":"\#(id)","q":0}"#)
        first.send(#"{"t":"i","id":"\#(field)","v":"ada","n":1}"#)
        #expect(await first.acknowledged(1))
        var second = Page(sessions, browser: owner, log: log)
        second.send(#"{"t":"hello","s":"\#(id)","q":0}"#)
        second.send(#"{"t":"i","id":"\#(field)","v":"PWNED","n":2}"#)
        #expect(await second.acknowledged(2))
        #expect(box.echo?.text.value == "PWNED")
        let rest = await first.rest()
        guard case .text(let notice)? = rest.first else { Issue.record("the first tab was not told: \(rest)"); return }
        #expect(notice.contains(#""t":"x""#) && notice.contains("open in another tab"), "\(notice)")
        #expect(rest.last == .close(1000), "\(rest)")
        #expect(log.all.contains { $0.contains("replaces the old one") }, "\(log.all)")
        second.input.finish()
    }

    /// The next number is the highest seen plus one: one past it is refused (not handled, not
    /// acknowledged), the next one still handled; so is one numbered 2^53−1. Resent messages
    /// (numbers already seen) stay harmless.
    @Test func aMessageNumberedFarAheadIsRefusedWithoutSilencingThePage() async throws {
        let log = Lines()
        let (sessions, session, field, box) = try await openEcho(log, owner: owner)
        let id = session.id
        var page = Page(sessions, browser: owner, log: log)
        page.send(#"{"t":"hello","s":"\#(id)","q":0,"n":3}"#)
        page.send(#"{"t":"i","id":"\#(field)","v":"four","n":4}"#)
        #expect(await page.acknowledged(4))
        // 6 is one past the next (5): refused, at the boundary.
        page.send(#"{"t":"i","id":"\#(field)","v":"six","n":6}"#)
        page.send(#"{"t":"i","id":"\#(field)","v":"forged","n":9007199254740991}"#)
        // A malformed message numbered far ahead is not acknowledged either.
        page.send(#"{"t":"i","id":"\#(field)","n":9007199254740990}"#)
        page.send(#"{"t":"i","id":"\#(field)","v":"five","n":5}"#)
        #expect(await page.acknowledged(5))
        // Ends the test at once when a refused message was taken (the next wait would last until
        // the guard's 90 s: a resent 6 makes no frame).
        let five = box.echo?.text.value
        try #require(five == "five")
        #expect(await session.executor.perform { session.document.acknowledged } == 5)
        page.send(#"{"t":"i","id":"\#(field)","v":"six again","n":6}"#)
        #expect(await page.acknowledged(6))
        #expect(box.echo?.text.value == "six again")
        #expect(log.all.filter { $0.contains("refused: message numbered") }.count == 2, "\(log.all)")
        #expect(log.all.contains { $0.contains("refused: malformed message: input without a value") }, "\(log.all)")
        #expect(await session.executor.perform { session.document.acknowledged } == 6)
        page.input.finish()
    }

    /// One address holds at most its share of the sessions (a quarter of them, at the exact
    /// boundary); another address still gets one; a closed session gives its share back; a
    /// session no page ever connected to gives way to the same address's next.
    @MainActor
    @Test func oneAddressGetsAShareOfTheSessions() throws {
        let log = Lines()
        let sessions = WebSessions(limits: .init(sessions: 8, reconnectGrace: .seconds(60)), log: log.append) { Echo($0) }
        #expect(sessions.limits.sessionsPerAddress == 2)
        #expect(WebSessions.Limits(sessions: 8, sessionsPerAddress: 5).sessionsPerAddress == 5)
        func greeted(_ client: String) -> WebSession? {
            guard case .opened(let session) = sessions.open(at: .root, client: client) else { return nil }
            let token = session.connect(send: { _ in })
            session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
            return session
        }
        let first = try #require(greeted("10.0.0.1"))
        _ = try #require(greeted("10.0.0.1"))
        guard case .fullForAddress = sessions.open(at: .root, client: "10.0.0.1") else {
            Issue.record("a third session for one address past its share of 2")
            return
        }
        #expect(log.all.contains { $0.contains("refused a new session for 10.0.0.1") })
        #expect(greeted("10.0.0.2") != nil, "another address still gets a session")
        first.close()
        #expect(greeted("10.0.0.1") != nil, "a closed session gives its share back")
        // An address's unused session gives way to its next.
        guard case .opened(let unused) = sessions.open(at: .root, client: "10.0.0.2") else { Issue.record("no second session"); return }
        guard case .opened = sessions.open(at: .root, client: "10.0.0.2") else { Issue.record("the unused session did not give way"); return }
        #expect(unused.isClosed)
        // Sessions opened without an address (tests, tools in the process) are not counted.
        for _ in 0..<2 { #expect(sessions.open() != nil) }
        sessions.closeAll()
    }

    /// The real server: the first page sets the browser cookie (HttpOnly, SameSite=Lax, the
    /// app's path), a page with it sets none; a WebSocket with the cookie attaches to the
    /// session, one without is refused.
    @Test func thePageSetsTheBrowserCookieAndTheSocketIsCheckedAgainstIt() async throws {
        let log = Lines()
        // Pages are made on the main actor, which the rest of the suite can keep busy for a long
        // while (the rehearsal of session 52: a page's session closed, unconnected, after 60 s,
        // before the test's socket came): a grace no wait of the suite's reaches.
        let sessions = await MainActor.run { WebSessions(limits: .init(sessions: 10, reconnectGrace: .seconds(600)), log: log.append) { Echo($0) } }
        let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let port = try await server.waitUntilListening()
        func get(_ cookie: String?) async throws -> String {
            let client = try await RawClient.connect(port)
            try await client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookie.map { "Cookie: theme=dark; \($0)\r\n" } ?? "")Connection: close\r\n\r\n")
            // A page is made on the main actor, which the rest of the suite can keep busy for seconds.
            return String(decoding: await client.readUntilClosed(timeout: .seconds(120)).bytes, as: UTF8.self)
        }
        let first = try await get(nil)
        let cookieLine = try #require(first.split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: ") }, "\(first.prefix(300))")
        let match = try #require(cookieLine.firstMatch(of: /Set-Cookie: mvvm_browser=([0-9a-f]{32}); Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/))
        let key = String(match.1)
        let second = try await get("mvvm_browser=\(key)")
        #expect(second.hasPrefix("HTTP/1.1 200") && !second.contains("Set-Cookie"), "a browser with the cookie keeps it")
        let forged = try await get("mvvm_browser=\(key)x")
        #expect(forged.contains("Set-Cookie: mvvm_browser="), "a cookie of the wrong shape is replaced")
        let id = try #require(second.firstMatch(of: /data-session="([0-9a-f]+)"/)).1
        let field = try #require(second.firstMatch(of: /<input[^>]*id="(e[0-9]+)"/)).1
        for (cookie, accepted) in [(key, true), (String(repeating: "c", count: 32), false), (nil, false)] {
            let socket = try await RawClient.connect(port)
            try await socket.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\(cookie.map { "Cookie: mvvm_browser=\($0)\r\n" } ?? "")\r\n")
            try await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"hello","s":"\#(id)","q":0}"#.utf8)))
            try await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"i","id":"\#(field)","v":"x","n":1}"#.utf8)))
            if accepted {
                var received: [UInt8] = []
                while !String(decoding: received, as: UTF8.self).contains(#""a":1"#) { received += try await socket.read(atMost: 65536) }
                socket.close()
            } else {
                // Until the socket closes, or until a frame shows it was taken (then it would
                // stay open until the timeout).
                var received: [UInt8] = []
                var closed = false
                while !String(decoding: received, as: UTF8.self).contains(#""a":"#) {
                    guard let bytes = try? await socket.read(atMost: 65536), !bytes.isEmpty else { closed = true; break }
                    received += bytes
                }
                socket.close()
                let text = String(decoding: received, as: UTF8.self)
                #expect(closed && text.contains("belongs to another browser") && Array(received.suffix(4)) == [0x88, 2, 0x03, 0xF0], "\(text)")
            }
        }
        #expect(WebAppServer.browserKey("a=b; mvvm_browser=\(key)") == key)
        #expect(WebAppServer.browserKey("mvvm_browser=\(key.uppercased())") == nil)
        #expect(WebAppServer.browserKey("mvvm_browser=\(key.dropLast())") == nil)
        await server.stop()
    }
}
#endif
