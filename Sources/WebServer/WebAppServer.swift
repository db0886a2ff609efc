#if WebServer
import FlyingFox
import FlyingSocks
import Foundation
import Synchronization
import WebUI


/// A request as a route sees it: the method, the address, the headers.
public struct WebRequest: Sendable {
    /// `GET`, `HEAD`, `POST`...
    public var method: String
    /// The path and query, decoded (`nil` when the browser's address could not be read).
    public var location: WebLocation?
    /// The headers, by lower-cased name.
    public var headers: [String: String]

    public init(method: String, location: WebLocation?, headers: [String: String] = [:]) {
        self.method = method
        self.location = location
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The query item `name`'s first value.
    public subscript(query name: String) -> String? { location?[name] }
}

/// A route's answer.
public struct WebResponse: Sendable {
    public var status: Int
    /// Extra headers (the server adds its security headers and the length).
    public var headers: [String: String]
    public var body: Data

    public init(status: Int = 200, contentType: String, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers.merging(["Content-Type": contentType]) { mine, _ in mine }
        self.body = body
    }

    /// Plain text.
    public static func text(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data(text.utf8))
    }

    /// An HTML page.
    public static func html(_ html: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "text/html; charset=utf-8", headers: ["Cache-Control": "no-store"], body: Data(html.utf8))
    }

    /// JSON text.
    public static func json(_ json: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "application/json", headers: ["Cache-Control": "no-store"], body: Data(json.utf8))
    }
}

/// Serves WebUI sessions. Any address the app has a screen for opens a session (one per tab)
/// and returns its first page (an address it has none for is a 404 page with a link home);
/// `/mvvm.js` and `/mvvm.css` are the page's script and stylesheet, `/favicon.ico` its icon,
/// `/ws` the WebSocket a page talks to its session over, and `/stats` counts sessions (open,
/// closed, and closed but not yet freed). More routes (images, a health check) can be added
/// with ``route(_:method:handler:)``. HEAD is answered as GET is, without the body.
///
/// It listens on 127.0.0.1 unless told otherwise. Other sites cannot use it through the
/// user's browser:
/// - a request whose `Host` is not a name of this server is refused (DNS rebinding: another
///   domain that resolves to 127.0.0.1), unless the server listens on every address;
/// - a WebSocket whose `Origin` is not this server is refused (another site's page cannot drive
///   a session);
/// - another site's script cannot open sessions (`Sec-Fetch-Site` other than a navigation);
/// - no other site may show its pages in a frame, and the browser runs only the page's own
///   script (the security headers on every response).
public final class WebAppServer: Sendable {
    private let server: HTTPServer
    private let sessions: WebSessions
    private let log: @Sendable (String) -> Void
    private let routes = Mutex<[(method: String, path: String, prefix: Bool, handler: @Sendable (WebRequest) async -> WebResponse)]>([])
    /// The host names requests may use (`nil`: any, when listening on every address).
    let allowedHosts: Set<String>?
    /// Frames waiting to be written to one socket before it is closed as too slow (the page
    /// reconnects and catches up).
    static let outgoingLimit = 512
    /// Added to every message in each direction (`--latency`): a slow network, felt.
    let latency: Duration

    /// A server for `sessions` on `host`:`port` (port 0: any free port; see
    /// ``waitUntilListening()``); `latency` delays every WebSocket message both ways, to try an
    /// app on a slow network.
    public init(host: String = "127.0.0.1", port: UInt16, sessions: WebSessions, latency: Duration = .zero,
                log: @escaping @Sendable (String) -> Void) throws {
        self.sessions = sessions
        self.log = log
        self.latency = latency
        allowedHosts = Self.allowedHosts(listeningOn: host)
        let address: any SocketAddress = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        server = HTTPServer(config: HTTPServer.Configuration(address: address, timeout: 30, pool: NoDelayPool(HTTPServer.defaultPool()), logger: .disabled))
    }

    /// Adds a route: an exact `path` (`"/health"`), or every path under a prefix
    /// (`"/images/*"`), for `method`. A `GET` route answers `HEAD` too. Routes are checked in the order they
    /// were added, before the app's pages; requests are checked as every route's are.
    public func route(_ path: String, method: String = "GET", handler: @escaping @Sendable (WebRequest) async -> WebResponse) {
        let prefix = path.hasSuffix("/*")
        let path = prefix ? String(path.dropLast()) : path
        routes.withLock { $0.append((method.uppercased(), path, prefix, handler)) }
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

    /// What every response carries (OWASP's secure headers): only this server's own script,
    /// styles and connections; no framing by another site; no type sniffing; no address sent to
    /// other sites.
    static let securityHeaders: [String: String] = [
        "Content-Security-Policy": "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    ]

    /// Listens until cancelled.
    public func run() async throws {
        let sessions = self.sessions
        let log = self.log
        let allowedHosts = self.allowedHosts
        let socket = WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: SessionSocket(sessions: sessions, latency: latency, log: log)))
        await server.appendRoute(HTTPRoute("*")) { [self] request in
            guard Self.isAllowedHost(request, allowedHosts) else {
                log("refused a request for host \(request.headers[.host] ?? "none")")
                return Self.finish(.text("This server does not answer for that host name.", status: 421), head: false)
            }
            let head = request.method == .HEAD
            let method = head ? "GET" : request.method.rawValue
            if request.method == .GET, request.path == "/ws" {
                guard Self.isSameOrigin(request) else {
                    log("refused a WebSocket from origin \(request.headers[HTTPHeader("Origin")] ?? "none") for host \(request.headers[.host] ?? "none")")
                    return Self.finish(.text("Cross-origin WebSocket refused.", status: 403), head: head)
                }
                return try await socket.handleRequest(request)
            }
            let headers = Dictionary(request.headers.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { first, _ in first })
            let webRequest = WebRequest(method: method, location: WebLocation(request.target.rawValue), headers: headers)
            return Self.finish(await self.answer(webRequest), head: head)
        }
        try await server.run()
    }

    /// The answer to a request that is not the WebSocket: a route, the page's files, or a page.
    func answer(_ request: WebRequest) async -> WebResponse {
        let sessions = self.sessions
        let path = request.location?.path ?? ""
        let matching = routes.withLock { routes in routes.filter { $0.prefix ? path.hasPrefix($0.path) : path == $0.path } }
        if let route = matching.first(where: { $0.method == request.method }) {
            return await route.handler(request)
        }
        if !matching.isEmpty {
            return WebResponse.text("\(request.method) is not allowed here.", status: 405)
        }
        switch path {
        case "/mvvm.js":
            return WebResponse(contentType: "text/javascript; charset=utf-8", headers: ["Cache-Control": "no-cache"], body: Data(PageShell.script.utf8))
        case "/mvvm.css":
            return WebResponse(contentType: "text/css; charset=utf-8", headers: ["Cache-Control": "no-cache"], body: Data(PageShell.stylesheet.utf8))
        case "/favicon.ico":
            return WebResponse(contentType: "image/x-icon", headers: ["Cache-Control": "max-age=86400"], body: Data(Favicon.ico))
        case "/stats":
            let (open, closed, leaked) = await MainActor.run { (sessions.openCount, sessions.closedCount, sessions.leakedCount) }
            return .json("{\"open\":\(open),\"closed\":\(closed),\"leaked\":\(leaked)}")
        default:
            break
        }
        guard request.method == "GET" else { return .text("\(request.method) is not allowed here.", status: 405) }
        guard let location = request.location else { return .html(PageShell.notFound(), status: 400) }
        // Another site's script (a no-cors fetch) must not open sessions; a link the user
        // follows from another site is a navigation, and fine.
        if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site",
           request.headers["sec-fetch-mode"] != "navigate" {
            log("refused a new session for a \(site) \(request.headers["sec-fetch-mode"] ?? "") request")
            return .text("Pages are opened by navigating to them.", status: 403)
        }
        let page: (status: Int, html: String) = await MainActor.run {
            switch sessions.open(at: location) {
            case .opened(let session): return (200, PageShell.html(for: session))
            case .notFound: return (404, PageShell.notFound())
            case .full: return (503, "")
            }
        }
        if page.status == 503 { return .text("Too many open sessions; close a tab and try again.", status: 503) }
        return .html(page.html, status: page.status)
    }

    /// The response as sent: the security headers added; for HEAD, the length of the body
    /// without the body.
    static func finish(_ response: WebResponse, head: Bool) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (name, value) in securityHeaders.merging(response.headers, uniquingKeysWith: { _, mine in mine }) {
            headers[HTTPHeader(name)] = value
        }
        if head { headers[.contentLength] = String(response.body.count) }
        return HTTPResponse(statusCode: HTTPStatusCode(response.status, phrase: phrase(response.status)), headers: headers, body: head ? Data() : response.body)
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
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
}

/// One WebSocket: its first message must be a `hello` naming an open session; every message
/// after it goes to that session, in order, on the main actor.
struct SessionSocket: WSMessageHandler {
    let sessions: WebSessions
    var latency: Duration = .zero
    let log: @Sendable (String) -> Void

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        // Bounded: a page that stops reading while the session keeps changing is closed (it
        // reconnects and catches up) instead of making the server buffer without end.
        let (out, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingOldest(WebAppServer.outgoingLimit))
        let sessions = self.sessions
        let log = self.log
        let client = Self.delayed(client, by: latency)
        let (toPage, toPageContinuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingOldest(WebAppServer.outgoingLimit))
        let delayedOut = Self.delayed(toPage, by: latency)
        // With no latency the frames go straight out; with it, through a relay that holds each.
        let direct = latency == .zero
        let send: @Sendable (WSMessage) -> Bool = { message in
            let result = direct ? continuation.yield(message) : toPageContinuation.yield(message)
            if case .dropped = result { return false }
            return true
        }
        let finish: @Sendable () -> Void = {
            if direct { continuation.finish() } else { toPageContinuation.finish() }
        }
        if !direct {
            Task {
                for await message in delayedOut { continuation.yield(message) }
                continuation.finish()
            }
        }
        Task {
            var bound: (session: WebSession, token: Int)?
            messages: for await message in client {
                switch message {
                case .text(let text):
                    if let bound {
                        await MainActor.run { bound.session.receive(text, token: bound.token) }
                        continue
                    }
                    // The first message: a hello for an open session, or for a page whose session
                    // is gone (the server restarted) that says its address: a new session there.
                    // Anything else closes the socket.
                    let result: Result<(WebSession, Int), ClientMessageError> = await MainActor.run {
                        do throws(ClientMessageError) {
                            guard case .hello(let id, _, let address) = try ClientMessage.parse(text) else {
                                throw .malformed("the first message must be a hello")
                            }
                            let session: WebSession
                            if let open = sessions.session(id) {
                                session = open
                            } else if let address, let location = WebLocation(address), case .opened(let new) = sessions.open(at: location, resuming: true) {
                                log("a page of an ended session resumed as a new one at \(location)")
                                session = new
                            } else {
                                throw .unknownSession
                            }
                            let token = session.connect(send: { frame in
                                if !send(.text(frame)) {
                                    log("closed a connection that stopped reading (\(WebAppServer.outgoingLimit) frames waiting)")
                                    finish()
                                }
                            }, close: { finish() })
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
                        _ = send(.text("{\"t\":\"x\",\"why\":\(Self.quoted(error == .unknownSession ? "This page\u{2019}s session has ended (the server restarted or the tab was away too long)." : "The page could not connect."))}"))
                        _ = send(.close(.policyViolation))
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
            finish()
        }
        return out
    }

    /// `stream`, each element held `latency` after it came (in order; a slow network, simulated).
    static func delayed<Element: Sendable>(_ stream: AsyncStream<Element>, by latency: Duration) -> AsyncStream<Element> {
        guard latency > .zero else { return stream }
        let (stamped, stamps) = AsyncStream<(ContinuousClock.Instant, Element)>.makeStream()
        let (out, continuation) = AsyncStream<Element>.makeStream()
        Task {
            for await element in stream { stamps.yield((ContinuousClock.now, element)) }
            stamps.finish()
        }
        Task {
            for await (arrived, element) in stamped {
                try? await Task.sleep(until: arrived + latency, clock: .continuous)
                continuation.yield(element)
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
#endif

#if WebServer
/// The page's icon: 16×16, drawn here (an ICO holding one 32-bit bitmap), so a tab shows it
/// and `/favicon.ico` is never a 404.
enum Favicon {
    static let ico: [UInt8] = {
        let size = 16
        var pixels: [UInt8] = []  // BGRA, bottom row first
        for row in (0..<size).reversed() {
            for column in 0..<size {
                // A blue rounded square with a white bar across: the page's accent colour.
                let x = Double(column) + 0.5, y = Double(row) + 0.5
                let dx = max(0, abs(x - 8) - 5), dy = max(0, abs(y - 8) - 5)
                let inside = dx * dx + dy * dy <= 9
                let bar = (7...8).contains(row) && (4...11).contains(column)
                if !inside {
                    pixels += [0, 0, 0, 0]
                } else if bar {
                    pixels += [255, 255, 255, 255]
                } else {
                    pixels += [0xDF, 0x60, 0x00, 255]
                }
            }
        }
        let mask = [UInt8](repeating: 0, count: size * 4)  // rows of 32 bits: all drawn by alpha
        let bitmapSize = 40 + pixels.count + mask.count
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        var out: [UInt8] = le16(0) + le16(1) + le16(1)  // an icon file with one image
        out += [UInt8(size), UInt8(size), 0, 0] + le16(1) + le16(32) + le32(bitmapSize) + le32(6 + 16)
        out += le32(40) + le32(size) + le32(size * 2) + le16(1) + le16(32) + le32(0) + le32(pixels.count + mask.count) + le32(0) + le32(0) + le32(0) + le32(0)
        return out + pixels + mask
    }()
}
#else
/// WebUI's server needs this package's `WebServer` trait:
/// `.package(url: ..., from: ..., traits: ["WebServer"])` in your Package.swift (in this
/// repository, `swift build --traits WebServer`).
@available(*, unavailable, message: "WebAppServer needs MVVMKit's WebServer trait: .package(url: ..., from: ..., traits: [\"WebServer\"])")
public final class WebAppServer {}
#endif
