// Issue 41, T-BEYOND4: each rule of the server at its exact boundary, from both sides, so that a mutant of
// the rule (Tests/Mutants/mutants.py, W*) fails a test.
#if WebServer
import Foundation
import Signals
import Synchronization
import Testing
@testable import WebServer
@testable import WebUI

@Suite(.serialized) struct ServerRuleTests {
    let attack = WebServerAttackTests()

    /// An origin is the page's own only when it names the host exactly: not one that starts with
    /// it, nor one it starts with.
    @Test func anOriginIsMatchedExactly() {
        func request(origin: String, host: String) -> RequestHead {
            RequestHead(target: "/ws", headers: ["Host": host, "Origin": origin])
        }
        #expect(WebAppServer.isSameOrigin(request(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080")))
        #expect(WebAppServer.isSameOrigin(request(origin: "http://LOCALHOST:8080", host: "localhost:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "http://127.0.0.1:8080.evil.example", host: "127.0.0.1:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "http://127.0.0.1:80", host: "127.0.0.1:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "http://127.0.0.1:8080/", host: "127.0.0.1:8080")))
    }

    /// A closed connection gives its address's count back: with a cap of 2, two held, a third is
    /// refused; one closed, the next is served.
    @Test func aClosedConnectionGivesItsAddressCountBack() async throws {
        let log = Lines()
        let server = try await attack.server(.init(connectionsPerAddress: 2), log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        let first = try await RawClient.connect(port, from: "127.0.0.3")
        let second = try await RawClient.connect(port, from: "127.0.0.3")
        while server.connectionCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let refused = try await RawClient.connect(port, from: "127.0.0.3")
        #expect(String(decoding: await refused.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 429"))
        first.close()
        while server.connectionCount > 1 { try await Task.sleep(for: .milliseconds(10)) }
        let next = try await RawClient.connect(port, from: "127.0.0.3")
        try await next.send("GET /mvvm.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: await next.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        second.close()
        await server.stop()
    }

    /// Issue 57: every way a session comes to exist is counted against its client's address. A
    /// hello naming a made-up session (a page whose session ended, resumed in a new one) opens
    /// one only within the address's share (2 of 8 here: the second opens, the third is refused
    /// and told why); another address still gets a page; the address's next page is refused with
    /// the app's page, which says why and links to the same address again.
    @Test func hellosNamingMadeUpSessionsAreCountedAgainstTheirAddress() async throws {
        let log = Lines()
        let sessions = await MainActor.run { WebSessions(limits: .init(sessions: 8, reconnectGrace: .seconds(60)), log: log.append) { Echo($0) } }
        let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        /// A WebSocket from `source` whose hello names a session nobody opened; the first thing
        /// the server answers (the page's reset, or the reason it was refused).
        func hello(from source: String) async throws -> (RawClient, String) {
            let client = try await RawClient.connect(port, from: source)
            try await client.send(attack.upgrade(port))
            var received: [UInt8] = []
            while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil { received += try await client.read(atMost: 1) }
            let id = (0..<32).map { _ in String("0123456789abcdef".randomElement()!) }.joined()
            try await client.send(clientFrame(FrameHeader.text, Array(#"{"t":"hello","s":"\#(id)","q":0,"p":"/"}"#.utf8)))
            var answer = ""
            while !answer.contains(#""t":"r""#) && !answer.contains(#""t":"x""#) {
                guard let bytes = try? await client.read(atMost: 65_536) else { break }
                answer += String(decoding: bytes, as: UTF8.self)
            }
            return (client, answer)
        }
        func page(from source: String) async throws -> String {
            let client = try await RawClient.connect(port, from: source, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            return String(decoding: await client.readUntilClosed().bytes, as: UTF8.self)
        }
        let (first, opened) = try await hello(from: "127.0.0.5")
        let (second, alsoOpened) = try await hello(from: "127.0.0.5")
        #expect(opened.contains(#""t":"r""#) && alsoOpened.contains(#""t":"r""#), "\(opened.prefix(80)) / \(alsoOpened.prefix(80))")
        let (third, refused) = try await hello(from: "127.0.0.5")
        #expect(refused.contains(#""t":"x""#) && refused.contains("as many open pages"), "\(refused.prefix(120))")
        #expect(sessions.ids.count == 2)
        #expect(log.all.contains { $0.contains("refused a new session for 127.0.0.5") }, "\(log.all)")
        let other = try await page(from: "127.0.0.6")
        #expect(other.hasPrefix("HTTP/1.1 200"), "another address still gets a page: \(other.prefix(60))")
        let past = try await page(from: "127.0.0.5")
        #expect(past.hasPrefix("HTTP/1.1 429") && past.contains("Retry-After: 5\r\n") && past.contains("text/html"), "\(past.prefix(300))")
        #expect(past.contains("Your address has too many pages") && past.contains(#"<a href="/" id="retry" class="button">Try again</a>"#), "\(past.suffix(600))")
        for client in [first, second, third] { client.close() }
        await server.stop()
    }

    /// A kept-alive connection with no new request is closed at its keep-alive timeout without a
    /// refusal line (browsers keep them for minutes); a request that is slow to arrive, on the
    /// same timeout, is still closed with one.
    @Test func anIdleKeptAliveConnectionIsClosedQuietlyAndASlowRequestIsNot() async throws {
        let log = Lines()
        let server = try await attack.server(.init(requestTimeout: .milliseconds(800), keepAliveTimeout: .milliseconds(800)), log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        let idle = try await RawClient.connect(port, from: "127.0.0.4", sending: "GET /mvvm.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let (answer, idleClosed) = await idle.readUntilClosed(timeout: .seconds(10))
        #expect(idleClosed && String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(!log.all.contains { $0.contains("took too long") }, "\(log.all)")

        let slow = try await RawClient.connect(port, from: "127.0.0.5")
        try await slow.send("GET /mvvm.css HTTP/1.1\r\nHo")
        let (_, slowClosed) = await slow.readUntilClosed(timeout: .seconds(10))
        #expect(slowClosed)
        let clock = ContinuousClock()
        let waited = clock.now
        while !log.all.contains(where: { $0.contains("took too long") }) && clock.now - waited < .seconds(5) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(log.all.contains { $0.contains("took too long") }, "\(log.all)")
        await server.stop()
    }

    /// A WebSocket that keeps talking is never closed for silence: each frame pushes its
    /// deadline back. Once silent, it is pinged and closed, no sooner than the timeout after the
    /// last frame. Nothing here hangs on a sleep's length: the page pings every 300 ms for twice
    /// the timeout (3 s), and a round held up (a loaded machine) until the server pings first
    /// only costs the server's ping a place among the pongs.
    @Test func activityPushesTheIdleDeadlineBack() async throws {
        let log = Lines()
        let timeout = Duration.seconds(3)
        let server = try await attack.server(.init(webSocketIdleTimeout: timeout), log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        let client = try await attack.webSocket(port)
        let clock = ContinuousClock()
        /// The server's frames (unmasked, short) as (opcode, payload length).
        func frames(_ bytes: [UInt8]) -> [(opcode: UInt8, length: Int)] {
            var found: [(UInt8, Int)] = [], at = 0
            while at + 1 < bytes.count {
                let length = Int(bytes[at + 1] & 0x7F)
                found.append((bytes[at] & 0x0F, length))
                at += 2 + length
            }
            return found
        }
        var received: [UInt8] = []
        var lastSent = clock.now
        for round in 1...20 {
            lastSent = clock.now
            try await client.send(clientFrame(FrameHeader.ping, Array("hi".utf8)))
            // Until this round's pong (frame 10, "hi") is in.
            while frames(received).filter({ $0.opcode == 0xA }).count < round {
                received += try await client.read(atMost: 65536)
            }
            try await Task.sleep(for: .milliseconds(300))
        }
        let (bytes, closed) = await client.readUntilClosed(timeout: .seconds(60))
        let quiet = clock.now - lastSent
        #expect(closed)
        #expect(frames(received + bytes).contains { $0.opcode == 0x9 }, "pinged before the close: \(bytes.prefix(8))")
        #expect(quiet >= timeout && quiet < .seconds(30), "closed \(quiet) after the last frame (the timeout is \(timeout))")
        await server.stop()
    }

    /// A message of exactly the limit is taken, one byte more is refused (close 1009), whole or
    /// in fragments.
    @Test func aMessageAtItsLimitIsTakenAndOneByteMoreIsNot() async throws {
        let log = Lines()
        let server = try await attack.server(.init(messageBytes: 1000), log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        let id = await MainActor.run { () -> String in
            if case .opened(let session) = server.sessions.open(at: .root) { return session.id }
            return ""
        }
        for (fragments, refused) in [([1000], false), ([1001], true), ([500, 500], false), ([500, 501], true)] {
            let client = try await attack.webSocket(port)
            // Its session's page: the message after the hello is the one measured (the session
            // refuses it as malformed, and the socket stays).
            try await client.send(clientFrame(FrameHeader.text, Array(#"{"t":"hello","s":"\#(id)","q":0}"#.utf8)))
            for (index, size) in fragments.enumerated() {
                let opcode = index == 0 ? FrameHeader.text : FrameHeader.continuation
                try await client.send(clientFrame(opcode, [UInt8](repeating: 0x61, count: size), fin: index == fragments.count - 1))
            }
            if refused {
                let (bytes, closed) = await client.readUntilClosed()
                #expect(closed && attack.closeCode(bytes) == 1009, "\(fragments)")
            } else {
                // Still open: a ping is answered.
                try await client.send(clientFrame(FrameHeader.ping, [7]))
                var received: [UInt8] = []
                while !received.contains(0x8A) { received += try await client.read(atMost: 65536) }
                client.close()
            }
        }
        await server.stop()
    }

    /// A body of exactly the limit is taken, one byte more is refused (413); a head of exactly
    /// its limit is answered, one byte more is refused (431), whether it comes at once or bit by bit.
    @Test func aBodyAndAHeadAtTheirLimits() async throws {
        let log = Lines()
        let server = try await attack.server(.init(requestHeadBytes: 2048, requestBodyBytes: 1000), log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        func answer(_ request: [UInt8], inPieces: Bool = false) async throws -> String {
            let client = try await RawClient.connect(port)
            if inPieces {
                for start in stride(from: 0, to: request.count, by: 512) { try await client.send(Array(request[start..<min(request.count, start + 512)])) }
            } else {
                try await client.send(request)
            }
            return String(decoding: await client.readUntilClosed().bytes, as: UTF8.self)
        }
        for (length, status) in [(1000, "200"), (1001, "413")] {
            let request = Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(length)\r\n\r\n".utf8) + [UInt8](repeating: 0x62, count: length)
            let text = try await answer(request)
            #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(length): \(text.prefix(40))")
            if status == "200" { #expect(text.hasSuffix("1000:bbbbbbbbbbbbbbbbbbbb")) }
        }
        let start = "GET /mvvm.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Pad: "
        for (size, status) in [(2048, "200"), (2049, "431")] {
            let head = Array((start + String(repeating: "p", count: size - start.utf8.count - 4) + "\r\n\r\n").utf8)
            #expect(head.count == size)
            for pieces in [false, true] {
                let text = try await answer(head, inPieces: pieces)
                #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(size) bytes\(pieces ? " in pieces" : ""): \(text.prefix(40))")
            }
        }
        await server.stop()
    }
}

@MainActor
@Suite struct SessionRuleTests {
    /// A session of one text field, its page connected.
    func connected(_ limits: WebSessions.Limits = .init(sessions: 4)) throws -> (WebSession, Int, String, Echo, Lines) {
        let lines = Lines()
        let last = Box()
        let sessions = WebSessions(limits: limits, log: lines.append) { document in
            let echo = Echo(document)
            last.echo = echo
            return echo
        }
        let session = try #require(sessions.open())
        let token = session.connect(send: { _ in })
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
        let echo = try #require(last.echo)
        return (session, token, echo.field.id, echo, lines)
    }

    /// A resent message (a number already handled) neither runs again nor moves the
    /// acknowledgement back.
    @Test func acknowledgementsNeverMoveBack() throws {
        let (session, token, field, echo, _) = try connected()
        session.receive(#"{"t":"i","id":"\#(field)","v":"a","n":1}"#, token: token)
        session.receive(#"{"t":"i","id":"\#(field)","v":"ab","n":2}"#, token: token)
        session.receive(#"{"t":"i","id":"\#(field)","v":"a","n":1}"#, token: token)
        #expect(session.document.acknowledged == 2)
        #expect(echo.text.value == "ab")
        session.document.acknowledge(1)
        session.document.skipMessages(through: 1)
        #expect(session.document.acknowledged == 2)
        session.close()
    }

    /// After a pause, the message budget is full but no fuller than its burst: of 40 messages
    /// at once, the burst (20) are handled, and no more than the budget refilled while they
    /// were sent (10 a second: none in the few milliseconds it takes, one or two more on a
    /// loaded machine); without the cap, the pause's 2 s would let all 40 through.
    @Test func aPauseFillsTheBudgetToItsBurstAndNoMore() async throws {
        var limits = WebSessions.Limits(sessions: 4)
        limits.messagesPerSecond = 10
        limits.messageBurst = 20
        let (session, token, field, echo, lines) = try connected(limits)
        let handled = Locked(0)
        let counting = echo.text.signal.sink { _ in handled.withLock { $0 += 1 } }
        defer { counting.dispose() }
        // The hello used one; 2 s refill far more than the burst without the cap.
        try await Task.sleep(for: .seconds(2))
        let clock = ContinuousClock(), started = clock.now
        for number in 1...40 {
            session.receive(#"{"t":"i","id":"\#(field)","v":"\#(number)","n":\#(number)}"#, token: token)
        }
        let refilled = Int(((clock.now - started) / .seconds(1) * 10).rounded(.up))
        let count = handled.withLock { $0 }
        #expect(count >= 20 && count <= 20 + refilled, "\(count) of 40 handled, with \(refilled) refilled meanwhile: \(lines.all)")
        session.close()
    }
}
#endif
