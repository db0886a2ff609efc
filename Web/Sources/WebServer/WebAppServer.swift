import FlyingFox
import FlyingSocks
import Foundation
import WebUI

/// Serves WebUI sessions: `GET /` opens a session (one per tab) and returns its first page,
/// `/mvvm.js` and `/mvvm.css` are the page's script and stylesheet, `/ws` is the WebSocket a
/// page talks to its session over, and `/stats` counts sessions (open, closed, and closed but
/// not yet freed). More routes (images, say) can be added with ``appendRoute(_:handler:)``.
///
/// It listens on 127.0.0.1 unless told otherwise. A WebSocket whose `Origin` is not this
/// server is refused (another site's page cannot drive a session).
public final class WebAppServer: Sendable {
    private let server: HTTPServer
    private let sessions: WebSessions
    private let log: @Sendable (String) -> Void

    /// A server for `sessions` on `host`:`port` (port 0: any free port; see ``port``).
    public init(host: String = "127.0.0.1", port: UInt16, sessions: WebSessions, log: @escaping @Sendable (String) -> Void) throws {
        self.sessions = sessions
        self.log = log
        let address: any SocketAddress = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        server = HTTPServer(config: HTTPServer.Configuration(address: address, timeout: 30, logger: .disabled))
    }

    /// Adds a route (`"GET /placeholder.svg"`).
    public func appendRoute(_ route: String, handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) async {
        await server.appendRoute(HTTPRoute(stringLiteral: route), handler: handler)
    }

    /// Listens until cancelled.
    public func run() async throws {
        let sessions = self.sessions
        let log = self.log
        await server.appendRoute("GET /") { _ in
            guard let html = await MainActor.run(body: { sessions.open().map { PageShell.html(for: $0) } }) else {
                return Self.text(.serviceUnavailable, "Too many open sessions; close a tab and try again.")
            }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: Data(html.utf8))
        }
        await server.appendRoute("GET /mvvm.js") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"], body: Data(PageShell.script.utf8))
        }
        await server.appendRoute("GET /mvvm.css") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "no-cache"], body: Data(PageShell.stylesheet.utf8))
        }
        await server.appendRoute("GET /stats") { _ in
            let (open, closed, leaked) = await MainActor.run { (sessions.openCount, sessions.closedCount, sessions.leakedCount) }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: Data("{\"open\":\(open),\"closed\":\(closed),\"leaked\":\(leaked)}".utf8))
        }
        let socket = WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: SessionSocket(sessions: sessions, log: log)))
        await server.appendRoute("GET /ws") { request in
            guard Self.isSameOrigin(request) else {
                log("refused a WebSocket from origin \(request.headers[HTTPHeader("Origin")] ?? "none") for host \(request.headers[.host] ?? "none")")
                return Self.text(.forbidden, "Cross-origin WebSocket refused.")
            }
            return try await socket.handleRequest(request)
        }
        try await server.run()
    }

    /// Waits until the server listens; its port then.
    public func waitUntilListening() async throws -> UInt16 {
        try await server.waitUntilListening()
        switch await server.listeningAddress {
        case .ip4(_, let port), .ip6(_, let port): return port
        default: return 0
        }
    }

    /// Stops listening.
    public func stop() async {
        await server.stop()
    }

    /// A browser sends the page's origin; it must name the host the page came from.
    static func isSameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers[HTTPHeader("Origin")] else { return false }
        guard let host = request.headers[.host], let url = URL(string: origin), let originHost = url.host else { return false }
        let originAuthority = originHost + (url.port.map { ":\($0)" } ?? "")
        return originAuthority.lowercased() == host.lowercased()
    }

    static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}

/// One WebSocket: its first message must be a `hello` naming an open session; every message
/// after it goes to that session, in order, on the main actor.
struct SessionSocket: WSMessageHandler {
    let sessions: WebSessions
    let log: @Sendable (String) -> Void

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (out, continuation) = AsyncStream<WSMessage>.makeStream()
        let sessions = self.sessions
        let log = self.log
        Task {
            var bound: (session: WebSession, token: Int)?
            messages: for await message in client {
                switch message {
                case .text(let text):
                    if let bound {
                        await MainActor.run { bound.session.receive(text, token: bound.token) }
                        continue
                    }
                    // The first message: a hello for an open session, or the socket closes.
                    let result: Result<(WebSession, Int), ClientMessageError> = await MainActor.run {
                        do throws(ClientMessageError) {
                            guard case .hello(let id, _) = try ClientMessage.parse(text) else {
                                throw .malformed("the first message must be a hello")
                            }
                            guard let session = sessions.session(id) else { throw .unknownSession }
                            let token = session.connect(send: { continuation.yield(.text($0)) })
                            session.receive(text, token: token)
                            return .success((session, token))
                        } catch {
                            return .failure(error)
                        }
                    }
                    switch result {
                    case .success(let pair):
                        bound = pair
                    case .failure(let error):
                        log("refused a connection: \(error.description)")
                        continuation.yield(.text("{\"t\":\"x\",\"why\":\(Self.quoted(error == .unknownSession ? "This page\u{2019}s session has ended (the server restarted or the tab was away too long)." : "The page could not connect."))}"))
                        continuation.yield(.close(.policyViolation))
                        break messages
                    }
                case .data(let data):
                    log("refused a binary message of \(data.count) bytes")
                case .close:
                    break messages
                }
            }
            if let bound {
                await MainActor.run { bound.session.disconnect(token: bound.token) }
            }
            continuation.finish()
        }
        return out
    }

    static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text])
        return data.flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst().dropLast()) } ?? "\"\""
    }
}
