// Issue 57, T-BEYOND4 (the rules on the less-travelled paths): an address the app has no page
// for. Its 404 is a page of its own, and it takes nothing: no session, no share of its client
// address, no unused session made to give way, no cookie; a resumed hello naming such an address
// opens nothing either.
#if WebServer
import Foundation
import Testing
@testable import WebServer
@testable import WebUI

@Suite struct NotFoundRuleTests {
    /// Sessions of a total of 4 (a share of 1 an address) with a page at `/` only.
    @MainActor
    func makeSessions(_ log: Lines) -> WebSessions {
        WebSessions(limits: .init(sessions: 4, reconnectGrace: .seconds(60)), log: log.append) { Echo($0) }
    }

    /// At every count of open sessions from 0 to the total, one address's 404s (as many as the
    /// total, and one more) leave every count as it was: the address still opens its share, and
    /// the unused sessions that would give way to a new page are all still open.
    @MainActor
    @Test func aPageThatIsNotThereTakesNoShareAndMakesNoSessionGiveWay() throws {
        for open in 0...4 {
            let log = Lines()
            let sessions = makeSessions(log)
            // `open` unused sessions, each from an address of its own (none connected: each would
            // give way to a new session once the total is reached).
            var unused: [WebSession] = []
            for index in 0..<open {
                guard case .opened(let session) = sessions.open(at: .root, client: "10.0.1.\(index)") else { throw Refused(open: open) }
                unused.append(session)
            }
            for _ in 0...sessions.limits.sessions {
                guard case .notFound = sessions.open(at: WebLocation("/nowhere")!, client: "10.0.0.9") else {
                    Issue.record("an address with no page was not a 404 at \(open) open")
                    return
                }
            }
            #expect(sessions.openCount == open, "at \(open) open")
            #expect(unused.allSatisfy { !$0.isClosed }, "no unused session gave way to a 404, at \(open) open")
            // The address's share is whole: its first page opens (an unused one gives way at the total).
            guard case .opened = sessions.open(at: .root, client: "10.0.0.9") else {
                Issue.record("the address that asked for 404s lost its share, at \(open) open")
                return
            }
            sessions.closeAll()
        }
    }
    struct Refused: Error { let open: Int }

    /// A resumed hello that names an ended session at an address with no page opens nothing and
    /// tells the page its session has ended (as for any session that cannot be resumed).
    @MainActor
    @Test func aResumedHelloAtAnAddressWithNoPageOpensNothing() async throws {
        let log = Lines()
        let sessions = makeSessions(log)
        let (client, input) = AsyncStream<SocketMessage>.makeStream()
        var output = SessionSocket.messages(sessions: sessions, browser: String(repeating: "a", count: 32), address: "10.0.0.9", log: log.append, for: client)
            .makeAsyncIterator()
        input.yield(.text(#"{"t":"hello","s":"0123456789abcdef0123456789abcdef","q":3,"p":"/nowhere?x=1"}"#))
        var said: [SocketMessage] = []
        while let message = await output.next() { said.append(message) }
        input.finish()
        #expect(said.contains { if case .text(let text) = $0 { text.contains("session has ended") } else { false } }, "\(said)")
        #expect(said.last == .close(SocketMessage.policyViolation), "\(said)")
        #expect(sessions.openCount == 0)
        guard case .opened = sessions.open(at: .root, client: "10.0.0.9") else {
            Issue.record("the address lost its share to a resumed hello at a 404")
            return
        }
        sessions.closeAll()
    }

    /// The real server: a 404 page is the app's, in its style with a link home, and sets no cookie
    /// (it opened nothing the cookie would tie to a browser); a page that is there sets one.
    @Test func aNotFoundPageSetsNoCookie() async throws {
        let log = Lines()
        let sessions = await MainActor.run { makeSessions(log) }
        let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let port = try await server.waitUntilListening()
        func get(_ path: String) async throws -> String {
            let client = try await RawClient.connect(port)
            try await client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return String(decoding: await client.readUntilClosed(timeout: .seconds(120)).bytes, as: UTF8.self)
        }
        for path in ["/nowhere", "/nowhere/deeper?q=1", "/%E6%96%87"] {
            let page = try await get(path)
            #expect(page.hasPrefix("HTTP/1.1 404") && page.contains("Page not found") && page.contains(#"href="/""#), "\(path): \(page.prefix(300))")
            #expect(!page.contains("Set-Cookie"), "\(path)")
        }
        #expect(await MainActor.run { sessions.openCount } == 0)
        #expect(try await get("/").contains("Set-Cookie: mvvm_browser="))
        await server.stop()
    }
}
#endif
