// Issue 57, T-BEYOND4 (the rules on the less-travelled paths): a header a request names twice, or
// splits. Browsers send one Origin and one Sec-WebSocket-Key; a client or proxy speaking HTTP/2
// may split the Cookie header (RFC 9113 §8.2.3), and the browser's key may be in any part.
#if WebServer
import Foundation
import Testing
@testable import WebServer
@testable import WebUI

@Suite struct RepeatedHeaderTests {
    let key = String(repeating: "d", count: 32)

    func head(_ fields: [(String, String)]) -> RequestHead {
        RequestHead(method: "GET", target: "/ws", fields: fields.map { HeaderField(name: $0.0.lowercased(), value: $0.1) })
    }

    /// Every way to spread the cookie pairs `theme=dark`, `mvvm_browser=KEY`, `lang=en` over one,
    /// two or three Cookie headers (in order, and with the key first): the browser's key is read
    /// from each, as from the one header a browser sends.
    var splitCookies: [[String]] {
        let orders = [["theme=dark", "mvvm_browser=\(key)", "lang=en"], ["mvvm_browser=\(key)", "theme=dark", "lang=en"]]
        var all: [[String]] = []
        for pairs in orders {
            // Each of the two gaps between pairs is either within one header ("; ") or a new header.
            for cuts in 0..<4 {
                var headers = [pairs[0]]
                for (index, pair) in pairs.dropFirst().enumerated() {
                    if cuts & (1 << index) != 0 { headers.append(pair) } else { headers[headers.count - 1] += "; " + pair }
                }
                all.append(headers)
            }
        }
        return all
    }

    @Test func theBrowsersKeyIsReadFromEveryCookieHeader() {
        #expect(splitCookies.count == 8)
        for headers in splitCookies {
            let request = head(headers.map { ("Cookie", $0) })
            #expect(WebAppServer.browserKey(request.cookie) == key, "\(headers)")
        }
        #expect(head([]).cookie == nil)
        #expect(WebAppServer.browserKey(head([("Cookie", "theme=dark"), ("Cookie", "lang=en")]).cookie) == nil)
    }

    /// Two Origins are refused whichever matches the host; one that matches is taken.
    @Test func aWebSocketNamingTwoOriginsIsRefused() {
        let host = ("Host", "127.0.0.1:8080"), good = ("Origin", "http://127.0.0.1:8080"), bad = ("Origin", "http://evil.example")
        #expect(WebAppServer.isSameOrigin(head([host, good])))
        #expect(!WebAppServer.isSameOrigin(head([host, good, good])), "even the same origin twice")
        #expect(!WebAppServer.isSameOrigin(head([host, good, bad])))
        #expect(!WebAppServer.isSameOrigin(head([host, bad, good])))
        #expect(!WebAppServer.isSameOrigin(head([host])))
    }

    /// A handshake names its key once (RFC 6455 §11.3.1): two keys are refused with 400, even
    /// equal ones; one is answered.
    @Test func aHandshakeNamingTwoKeysIsRefused() throws {
        let upgrade = [("Host", "a"), ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13")]
        let sample = ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(try WebSocketHandshake.accept(head(upgrade + [sample])) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        for keys in [[sample, sample], [sample, ("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAA==")], []] {
            #expect(throws: HTTPRefusal.self, "\(keys.count) keys") { try WebSocketHandshake.accept(head(upgrade + keys)) }
            do {
                _ = try WebSocketHandshake.accept(head(upgrade + keys))
            } catch {
                #expect(error.status == 400)
            }
        }
    }

    /// The real server: a page asked for with the browser's cookie split over two headers is the
    /// same browser's (no new cookie), a route sees the cookies joined, and its WebSocket attaches.
    @Test func aCookieSplitOverHeadersIsOneBrowsersOnThePageAndTheSocket() async throws {
        let log = Lines()
        // Pages are made on the main actor, which the rest of the suite can keep busy for a long
        // while (the rehearsal of session 52: a page's session closed, unconnected, after 60 s,
        // before the test's socket came): a grace no wait of the suite's reaches.
        let sessions = await MainActor.run { WebSessions(limits: .init(sessions: 10, reconnectGrace: .seconds(600)), log: log.append) { Echo($0) } }
        let seen = Lines()
        let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
        server.route("/cookies") { request in
            seen.append(request.headers["cookie"] ?? "none")
            return .text("ok")
        }
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let port = try await server.waitUntilListening()
        func get(_ path: String, _ cookies: [String]) async throws -> String {
            let client = try await RawClient.connect(port)
            try await client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + cookies.map { "Cookie: \($0)\r\n" }.joined() + "Connection: close\r\n\r\n")
            // A page is made on the main actor, which the rest of the suite can keep busy for seconds.
            return String(decoding: await client.readUntilClosed(timeout: .seconds(120)).bytes, as: UTF8.self)
        }
        let page = try await get("/", ["theme=dark", "mvvm_browser=\(key)"])
        #expect(page.hasPrefix("HTTP/1.1 200") && !page.contains("Set-Cookie"), "the browser's key was read from the second header: \(page.prefix(400))")
        _ = try await get("/cookies", ["theme=dark", "mvvm_browser=\(key)"])
        #expect(seen.all == ["theme=dark; mvvm_browser=\(key)"])
        let id = try #require(page.firstMatch(of: /data-session="([0-9a-f]+)"/)).1
        let field = try #require(page.firstMatch(of: /<input[^>]*id="(e[0-9]+)"/)).1
        let socket = try await RawClient.connect(port)
        try await socket.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nCookie: theme=dark\r\nCookie: mvvm_browser=\(key)\r\n\r\n")
        try await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"hello","s":"\#(id)","q":0}"#.utf8)))
        try await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"i","id":"\#(field)","v":"x","n":1}"#.utf8)))
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains(#""a":1"#) {
            let bytes = try await socket.read(atMost: 65536)
            guard !bytes.isEmpty else { break }
            received += bytes
        }
        socket.close()
        #expect(String(decoding: received, as: UTF8.self).contains(#""a":1"#), "the socket attached: \(String(decoding: received, as: UTF8.self).prefix(300))")
        await server.stop()
    }
}
#endif
