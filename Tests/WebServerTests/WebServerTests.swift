// The server's tests: only with the package's WebServer trait (the module is empty without it).
#if WebServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MVVM
import Signals
import SignalsTesting
import Synchronization
import Testing
@testable import WebServer
@testable import WebUI

/// A session's content for tests: one text field bound to a property.
// SAFETY: tests read only `text` (a thread-safe property) and `field.id` (set before the session
// is shared) from outside the session's executor.
final class Echo: WebSessionContent, @unchecked Sendable {
    let field = TextField()
    let text = MutableProperty("")

    init(_ document: Document) {
        document.root.setChildren([field])
        field.bind(to: text)
    }

    func close() {}
}

/// The session's content, as a test sees it (set on the session's executor, read by the test).
final class Box: Sendable {
    private let stored = Locked<WeakEcho>(WeakEcho())
    var echo: Echo? {
        get { stored.withLock { $0.echo } }
        set { stored.withLock { $0.echo = newValue } }
    }
    struct WeakEcho { weak var echo: Echo? }
}

final class Lines: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite struct WebServerTests {
    @MainActor
    /// Sessions of an `Echo` each. The grace is long unless a test is about it: these tests run
    /// beside the whole suite, whose blocking tests can hold the cooperative threads for seconds.
    func sessions(log: Lines, grace: Duration = .seconds(60)) -> (WebSessions, Box) {
        let box = Box()
        let sessions = WebSessions(limits: .init(sessions: 4, reconnectGrace: grace), log: { log.append($0) }) { document in
            let echo = Echo(document)
            box.echo = echo
            return echo
        }
        return (sessions, box)
    }


    /// A socket's messages go to its session in order; a closed socket starts the grace period.
    @Test func aSocketDrivesItsSession() async throws {
        let log = Lines()
        let (sessions, box) = await sessions(log: log)
        let (opened, echoField) = await MainActor.run { (sessions.open(), box.echo?.field.id) }
        let session = try #require(opened)
        let field = try #require(echoField)
        let id = session.id
        let (client, input) = AsyncStream<SocketMessage>.makeStream()
        let out = SessionSocket.messages(sessions: sessions, log: log.append, for: client)
        input.yield(.text(#"{"t":"hello","s":"\#(id)","q":0}"#))
        for value in ["h", "he", "hel", "hell", "hello"] {
            input.yield(.text(#"{"t":"i","id":"\#(field)","v":"\#(value)","n":\#(value.count)}"#))
        }
        var iterator = out.makeAsyncIterator()
        var acknowledged = 0
        while acknowledged < 5, case .text(let frame)? = await iterator.next() {
            if let range = frame.range(of: #""a":"#) {
                acknowledged = Int(frame[range.upperBound...].prefix { $0.isNumber }) ?? 0
            }
        }
        #expect(box.echo?.text.value == "hello")
        input.finish()
        while await iterator.next() != nil {}
        #expect(session.isConnected == false)
        // The grace period itself (60 s here: these tests run beside the whole suite, which can
        // hold the cooperative threads for seconds) is shortened to see it end.
        await MainActor.run { session.closeUnlessConnected(within: .milliseconds(200)) }
        let closed = ContinuousClock.now
        while !session.isClosed, ContinuousClock.now - closed < .seconds(60) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(session.isClosed)
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("closed: its page left and did not come back within") == true, "\(log.all)")
    }

    /// A hello for a session that does not exist (or garbage first) is refused: the page is told
    /// its session ended, the socket closes, and the reason is logged.
    @Test func aHelloForAnUnknownSessionIsRefused() async throws {
        let log = Lines()
        let (sessions, _) = await sessions(log: log)
        for first in [#"{"t":"hello","s":"0123456789abcdef0123456789abcdef","q":0}"#, "garbage", #"{"t":"c","id":"e1","n":1}"#] {
            let (client, input) = AsyncStream<SocketMessage>.makeStream()
            let out = SessionSocket.messages(sessions: sessions, log: log.append, for: client)
            input.yield(.text(first))
            var received: [SocketMessage] = []
            for await message in out { received.append(message) }
            #expect(received.count == 2)
            if case .text(let text) = received.first { #expect(text.hasPrefix(#"{"t":"x""#)) } else { Issue.record("expected the ended-session message") }
            #expect(received.last == .close(SocketMessage.policyViolation))
        }
        #expect(log.all.count == 3)
        #expect(log.all.allSatisfy { $0.hasPrefix("refused a connection") })
        #expect(log.all[0].contains("unknown or expired session"))
    }

    /// Fuzzed bytes after a good hello: every message is refused or handled, never a crash, and
    /// the session still works after.
    @Test func fuzzedMessagesNeverBreakASession() async throws {
        let log = Lines()
        let (sessions, box) = await sessions(log: log)
        let (opened, echoField) = await MainActor.run { (sessions.open(), box.echo?.field.id) }
        let session = try #require(opened)
        let field = try #require(echoField)
        let id = session.id
        let (client, input) = AsyncStream<SocketMessage>.makeStream()
        let out = SessionSocket.messages(sessions: sessions, log: log.append, for: client)
        // The page says it has numbered 999,999 messages: the last one below is the next.
        let began = ContinuousClock.now
        input.yield(.text(#"{"t":"hello","s":"\#(id)","q":0,"n":999999}"#))
        var generator = SystemRandomNumberGenerator()
        let pieces = ["{", "}", "\"t\"", ":", "\"i\"", ",", "\"id\"", "\"\(field)\"", "\"v\"", "\"x\"", "null", "1", "-1", "[", "]", "\"n\"", "\"f\"", "\"l\"", "\"c\"", "\"e\"", "\"b\"", "\"d\"", "\u{0}", "\u{FFFF}", "😀", "\\", "\"s\"", "\"\(id)\""]
        for _ in 0..<2000 {
            let message = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            input.yield(.text(message))
        }
        input.yield(.text(#"{"t":"i","id":"\#(field)","v":"still works","n":1000000}"#))
        var iterator = out.makeAsyncIterator()
        while case .text(let frame)? = await iterator.next(), !frame.contains(#""a":1000000"#) {}
        #expect(box.echo?.text.value == "still works")
        // Refusals are logged at most 20 lines a second (WebSessions.Limits), the rest counted:
        // the next second's first refusal says how many were left out. The seconds are the
        // clock's: the messages' handling touched at most its whole seconds plus 2 (a few here;
        // more when the suites beside this one hold the threads).
        let logged = log.all.count, seconds = Int((ContinuousClock.now - began) / .seconds(1))
        #expect(logged <= 20 * (seconds + 2), "\(logged) lines for 2,000 refusals in \(seconds) s (20 a second at most)")
        try await Task.sleep(for: .milliseconds(1100))
        input.yield(.data(Data([0, 1, 2])))
        let clock = ContinuousClock(), asked = clock.now
        // A binary message is a file's chunk, to the session: 3 bytes are not even its header.
        while !log.all.contains(where: { $0.contains("file chunk") }), clock.now - asked < .seconds(90) { try await Task.sleep(for: .milliseconds(20)) }
        let binary = log.all.first { $0.contains("file chunk") } ?? ""
        #expect(binary.contains("refused: malformed message: a file chunk of 3 bytes, shorter than its header (24)"), "\(binary)")
        // Nothing is lost from the count: the lines plus the refusals they say they left out
        // are every refusal (the 2,000 fuzzed messages, but for the rare one that is well
        // formed, and the binary one). Which second the last of them fell in does not matter:
        // the binary one, a second later, says what that second left out.
        let lines = log.all.filter { $0.contains("refused") }
        let accounted = lines.count + lines.map(RefusalLog.leftOut).reduce(0, +)
        #expect((1950...2001).contains(accounted), "\(lines.count) lines account for \(accounted) refusals of about 2,001")
        input.finish()
    }

    @Test func theWebSocketMustComeFromThePagesOwnOrigin() {
        func request(origin: String?, host: String) -> RequestHead {
            var headers = ["Host": host]
            if let origin { headers["Origin"] = origin }
            return RequestHead(target: "/ws", headers: headers)
        }
        #expect(WebAppServer.isSameOrigin(request(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "http://evil.example", host: "127.0.0.1:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "http://127.0.0.1:9999", host: "127.0.0.1:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: nil, host: "127.0.0.1:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "null", host: "127.0.0.1:8080")))
        // Review finding: IPv6 was always refused.
        #expect(WebAppServer.isSameOrigin(request(origin: "http://[::1]:8080", host: "[::1]:8080")))
        #expect(!WebAppServer.isSameOrigin(request(origin: "http://[::1]:8081", host: "[::1]:8080")))
    }

    /// DNS rebinding: a name that resolves to 127.0.0.1 but is not this server's is refused.
    @Test func onlyTheServersOwnHostNamesAreAnswered() {
        func request(host: String?) -> RequestHead {
            RequestHead(headers: host.map { ["Host": $0] } ?? [:])
        }
        let loopback = WebAppServer.allowedHosts(listeningOn: "127.0.0.1")
        for good in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080"] {
            #expect(WebAppServer.isAllowedHost(request(host: good), loopback), "\(good)")
        }
        for bad in ["evil.example:8080", "127.0.0.1.evil.example", "", "[::2]:8080"] {
            #expect(!WebAppServer.isAllowedHost(request(host: bad), loopback), "\(bad)")
        }
        #expect(!WebAppServer.isAllowedHost(request(host: nil), loopback))
        #expect(WebAppServer.isAllowedHost(request(host: "anything:1"), WebAppServer.allowedHosts(listeningOn: "0.0.0.0")))
    }

    /// The real server on loopback: a page per request, the script and stylesheet, the counts,
    /// and a cross-origin WebSocket refused.
    @Test func theServerServesPagesOnLoopback() async throws {
        let log = Lines()
        let (sessions, _) = await sessions(log: log)
        let server = try WebAppServer(port: 0, sessions: sessions, statsToken: "s3cret", log: log.append)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let port = try await server.waitUntilListening()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        let (page, response) = try await URLSession.shared.data(from: base)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.contains("data-session=\""))
        #expect(html.contains("<script src=\"/mvvm.js\"></script>"))
        let (script, _) = try await URLSession.shared.data(from: base.appendingPathComponent("mvvm.js"))
        #expect(String(decoding: script, as: UTF8.self) == PageShell.script)
        var statsRequest = URLRequest(url: base.appendingPathComponent("stats"))
        statsRequest.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
        let (stats, _) = try await URLSession.shared.data(for: statsRequest)
        #expect(String(decoding: stats, as: UTF8.self) == #"{"open":1,"closed":0,"leaked":0}"#)
        // Issue 32: /stats is not public: without its token (or with another) it is not there.
        let (_, noToken) = try await URLSession.shared.data(from: base.appendingPathComponent("stats"))
        #expect((noToken as? HTTPURLResponse)?.statusCode == 404)
        statsRequest.setValue("Bearer s3cres", forHTTPHeaderField: "Authorization")
        let (_, wrongToken) = try await URLSession.shared.data(for: statsRequest)
        #expect((wrongToken as? HTTPURLResponse)?.statusCode == 404)
        let (byQuery, _) = try await URLSession.shared.data(from: URL(string: base.absoluteString + "/stats?token=s3cret")!)
        #expect(String(decoding: byQuery, as: UTF8.self).hasPrefix(#"{"open":1"#))
        #expect(!WebAppServer.sameToken("s3cre", "s3cret") && !WebAppServer.sameToken("s3crett", "s3cret") && WebAppServer.sameToken("s3cret", "s3cret"))
        var upgrade = URLRequest(url: base.appendingPathComponent("ws"))
        for (name, value) in ["Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                              "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://evil.example"] {
            upgrade.setValue(value, forHTTPHeaderField: name)
        }
        let (_, refused) = try await URLSession.shared.data(for: upgrade)
        #expect((refused as? HTTPURLResponse)?.statusCode == 403)
        #expect(log.all.contains { $0.contains("refused a WebSocket from origin http://evil.example") })
        let (_, missing) = try await URLSession.shared.data(from: base.appendingPathComponent("nothing-here"))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        // Another site's script cannot open sessions; a navigation from another site can.
        var fetch = URLRequest(url: base)
        fetch.setValue("cross-site", forHTTPHeaderField: "Sec-Fetch-Site")
        fetch.setValue("no-cors", forHTTPHeaderField: "Sec-Fetch-Mode")
        let (_, crossSite) = try await URLSession.shared.data(for: fetch)
        #expect((crossSite as? HTTPURLResponse)?.statusCode == 403)
        fetch.setValue("navigate", forHTTPHeaderField: "Sec-Fetch-Mode")
        let (_, navigation) = try await URLSession.shared.data(for: fetch)
        #expect((navigation as? HTTPURLResponse)?.statusCode == 200)
        // DNS rebinding.
        var rebound = URLRequest(url: base)
        rebound.setValue("evil.example:\(port)", forHTTPHeaderField: "Host")
        let (_, misdirected) = try await URLSession.shared.data(for: rebound)
        #expect((misdirected as? HTTPURLResponse)?.statusCode == 421)
        await server.stop()
    }

    /// Issue 26: every response carries the security headers; HEAD is GET without the body; a
    /// page at an address the app has none for is a 404 page with a way home; the favicon is
    /// there; routes of the app's own come first, and a wrong method on one is a 405.
    @Test func headersHeadNotFoundAndRoutes() async throws {
        let log = Lines()
        let (sessions, _) = await sessions(log: log)
        let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
        server.route("/health") { _ in .text("ok") }
        server.route("/items/*") { request in .json("{\"path\":\"\(request.location?.path ?? "")\"}") }
        server.route("/form", method: "POST") { _ in .text("posted") }
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let port = try await server.waitUntilListening()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        func fetch(_ path: String, method: String = "GET") async throws -> (Int, String, HTTPURLResponse) {
            var request = URLRequest(url: URL(string: base.absoluteString + path)!)
            request.httpMethod = method
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, String(decoding: data, as: UTF8.self), http)
        }
        for path in ["/", "/mvvm.js", "/mvvm.css", "/favicon.ico", "/health", "/nothing-here"] {
            let (_, _, response) = try await fetch(path)
            let policy = response.value(forHTTPHeaderField: "Content-Security-Policy") ?? ""
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'"), "\(path): \(policy)")
            #expect(response.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff", "\(path)")
            #expect(response.value(forHTTPHeaderField: "Referrer-Policy") == "same-origin", "\(path)")
        }
        let (status, html, _) = try await fetch("/nothing-here")
        #expect(status == 404 && html.contains("Page not found") && html.contains("href=\"/\""))
        let (iconStatus, icon, iconResponse) = try await fetch("/favicon.ico")
        #expect(iconStatus == 200 && iconResponse.value(forHTTPHeaderField: "Content-Type") == "image/x-icon" && !icon.isEmpty)
        let (headStatus, headBody, headResponse) = try await fetch("/mvvm.js", method: "HEAD")
        #expect(headStatus == 200 && headBody.isEmpty)
        #expect(headResponse.value(forHTTPHeaderField: "Content-Length") == String(PageShell.script.utf8.count))
        let (pageHead, pageHeadBody, _) = try await fetch("/", method: "HEAD")
        #expect(pageHead == 200 && pageHeadBody.isEmpty, "a HEAD of / is answered")
        #expect(try await fetch("/health").1 == "ok")
        #expect(try await fetch("/items/a%20b").1 == #"{"path":"/items/a b"}"#)
        #expect(try await fetch("/health", method: "POST").0 == 405)
        #expect(try await fetch("/form", method: "POST").1 == "posted")
        #expect(try await fetch("/", method: "DELETE").0 == 405)
        await server.stop()
    }

    /// Issue 26: after a restart the page's hello names a session the server never had; with
    /// its address it gets a new session there (the whole page, and the new id); without one it
    /// is told the session ended.
    @Test func aPageOfAnEndedSessionResumesInANewOne() async throws {
        let log = Lines()
        let (sessions, box) = await sessions(log: log)
        let (client, input) = AsyncStream<SocketMessage>.makeStream()
        let out = SessionSocket.messages(sessions: sessions, log: log.append, for: client)
        // The page had sent 5 messages to its old session; the last 2 are resent after the hello
        // (as the page does), and must not be taken: their element ids were the old page's.
        input.yield(.text(#"{"t":"hello","s":"0123456789abcdef0123456789abcdef","q":7,"p":"/","n":5}"#))
        input.yield(.text(#"{"t":"i","id":"e3","v":"typed for the old page","n":4}"#))
        input.yield(.text(#"{"t":"c","id":"e3","n":5}"#))
        var iterator = out.makeAsyncIterator()
        guard case .text(let reset)? = await iterator.next() else { Issue.record("no frame"); return }
        #expect(reset.hasPrefix(#"{"t":"r","#) && reset.contains(#""sid":""#), "\(reset.prefix(80))")
        #expect(reset.contains(#""a":5"#), "the page's messages to its old session are answered: \(reset.prefix(80))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(box.echo?.text.value == "", "a message for the old page reached the new one")
        #expect(!log.all.contains { $0.contains("refused") }, "\(log.all)")
        let ids = sessions.ids
        #expect(ids.count == 1 && reset.contains(ids[0]))
        #expect(log.all.contains { $0.contains("resumed as a new one at /") })
        input.finish()

        let (other, otherInput) = AsyncStream<SocketMessage>.makeStream()
        let refused = SessionSocket.messages(sessions: sessions, log: log.append, for: other)
        otherInput.yield(.text(#"{"t":"hello","s":"ffffffffffffffffffffffffffffffff","q":7,"p":"/no/such/screen"}"#))
        var refusedIterator = refused.makeAsyncIterator()
        guard case .text(let ended)? = await refusedIterator.next() else { Issue.record("no answer"); return }
        #expect(ended.contains("session has ended"))
        otherInput.finish()
    }

    /// `--latency` and `--jitter`: every message waits at least the latency, and none is let
    /// through before the one before it, whatever the jitter drew.
    @Test func latencyDelaysEachMessageInOrder() {
        let start = ContinuousClock.now
        var line = DelayLine(latency: .milliseconds(150), jitter: .milliseconds(100))
        var previous = start
        for index in 0..<200 {
            let arrived = start + .milliseconds(index)
            let released = line.release(arrived: arrived)
            #expect(released >= arrived + .milliseconds(150) && released <= arrived + .milliseconds(250 + 200))
            #expect(released >= previous, "in order")
            previous = released
        }
    }
}
#endif
