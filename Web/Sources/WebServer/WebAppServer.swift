import FlyingFox
import FlyingSocks
import Foundation
import WebUI

/// Serves WebUI sessions: `GET /` opens a session (one per tab) and returns its first page,
/// `/mvvm.js` and `/mvvm.css` are the page's script and stylesheet, `/ws` is the WebSocket a
/// page talks to its session over, and `/stats` counts sessions (open, closed, and closed but
/// not yet freed). More routes (images, say) can be added with ``appendRoute(_:handler:)``.
///
/// It listens on 127.0.0.1 unless told otherwise. Other sites cannot use it through the
/// user's browser:
/// - a request whose `Host` is not a name of this server is refused (DNS rebinding: another
///   domain that resolves to 127.0.0.1), unless the server listens on every address;
/// - a WebSocket whose `Origin` is not this server is refused (another site's page cannot drive
///   a session);
/// - another site's script cannot open sessions (`Sec-Fetch-Site` other than a navigation).
public final class WebAppServer: Sendable {
    private let server: HTTPServer
    private let sessions: WebSessions
    private let log: @Sendable (String) -> Void
    /// The host names requests may use (`nil`: any, when listening on every address).
    let allowedHosts: Set<String>?
    /// Frames waiting to be written to one socket before it is closed as too slow (the page
    /// reconnects and catches up).
    static let outgoingLimit = 512

    /// A server for `sessions` on `host`:`port` (port 0: any free port; see ``port``).
    public init(host: String = "127.0.0.1", port: UInt16, sessions: WebSessions, log: @escaping @Sendable (String) -> Void) throws {
        self.sessions = sessions
        self.log = log
        allowedHosts = Self.allowedHosts(listeningOn: host)
        let address: any SocketAddress = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        server = HTTPServer(config: HTTPServer.Configuration(address: address, timeout: 30, pool: NoDelayPool(HTTPServer.defaultPool()), logger: .disabled))
    }

    /// Adds a route (`"GET /placeholder.svg"`); its requests are checked as every route's are.
    public func appendRoute(_ route: String, handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) async {
        let allowedHosts = self.allowedHosts
        let log = self.log
        await server.appendRoute(HTTPRoute(stringLiteral: route)) { request in
            guard Self.isAllowedHost(request, allowedHosts) else {
                log("refused a request for host \(request.headers[.host] ?? "none")")
                return Self.text(.misdirectedRequest, "This server does not answer for that host name.")
            }
            return try await handler(request)
        }
    }

    /// The names a server listening on `host` answers to: loopback's names on loopback, the
    /// address itself otherwise, any name on every address.
    static func allowedHosts(listeningOn host: String) -> Set<String>? {
        let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]
        if host == "0.0.0.0" || host == "::" { return nil }
        if loopback.contains(host) || host.hasPrefix("127.") { return loopback.union([host]) }
        return loopback.union([host.lowercased()])
    }

    /// The host name of a `Host` header or a URL authority, without the port or IPv6 brackets.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end]).lowercased()
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }

    static func isAllowedHost(_ request: HTTPRequest, _ allowed: Set<String>?) -> Bool {
        guard let allowed else { return true }
        guard let host = request.headers[.host] else { return false }
        return allowed.contains(hostName(host))
    }

    /// Listens until cancelled.
    public func run() async throws {
        let sessions = self.sessions
        let log = self.log
        await appendRoute("GET /") { request in
            // Another site's script (a no-cors fetch) must not open sessions; a link the user
            // follows from another site is a navigation, and fine.
            if let site = request.headers[HTTPHeader("Sec-Fetch-Site")], site == "cross-site" || site == "same-site",
               request.headers[HTTPHeader("Sec-Fetch-Mode")] != "navigate" {
                log("refused a new session for a \(site) \(request.headers[HTTPHeader("Sec-Fetch-Mode")] ?? "") request")
                return Self.text(.forbidden, "Pages are opened by navigating to them.")
            }
            guard let html = await MainActor.run(body: { sessions.open().map { PageShell.html(for: $0) } }) else {
                return Self.text(.serviceUnavailable, "Too many open sessions; close a tab and try again.")
            }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: Data(html.utf8))
        }
        await appendRoute("GET /mvvm.js") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"], body: Data(PageShell.script.utf8))
        }
        await appendRoute("GET /mvvm.css") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "no-cache"], body: Data(PageShell.stylesheet.utf8))
        }
        await appendRoute("GET /stats") { _ in
            let (open, closed, leaked) = await MainActor.run { (sessions.openCount, sessions.closedCount, sessions.leakedCount) }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: Data("{\"open\":\(open),\"closed\":\(closed),\"leaked\":\(leaked)}".utf8))
        }
        let socket = WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: SessionSocket(sessions: sessions, log: log)))
        await appendRoute("GET /ws") { request in
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

    /// A browser sends the page's origin; it must name the host (and port) the page came from.
    static func isSameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers[HTTPHeader("Origin")], let host = request.headers[.host] else { return false }
        guard let schemeEnd = origin.range(of: "://") else { return false }
        return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()
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
        // Bounded: a page that stops reading while the session keeps changing is closed (it
        // reconnects and catches up) instead of making the server buffer without end.
        let (out, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingOldest(WebAppServer.outgoingLimit))
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
                            let token = session.connect(send: { frame in
                                if case .dropped = continuation.yield(.text(frame)) {
                                    log("closed a connection that stopped reading (\(WebAppServer.outgoingLimit) frames waiting)")
                                    continuation.finish()
                                }
                            }, close: { continuation.finish() })
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

/// The default socket pool, setting `TCP_NODELAY` on each socket it waits on: a patch is a small
/// write, and without it Nagle's algorithm holds one until the page's delayed ACK of the one
/// before (about 40 ms: seen on the last keystroke of a word, 44 ms, before this).
struct NoDelayPool<Pool: AsyncSocketPool>: AsyncSocketPool {
    let pool: Pool

    init(_ pool: Pool) {
        self.pool = pool
    }

    func prepare() async throws { try await pool.prepare() }

    func run() async throws { try await pool.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        // Idempotent and cheap; fails harmlessly on the listening socket.
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY)))
        try await pool.suspendSocket(socket, untilReadyFor: events)
    }
}
