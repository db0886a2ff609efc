#if WebServer
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
    /// The headers, by lower-cased name (the first of a repeated one).
    public var headers: [String: String]
    /// The body (empty for GET; at most ``WebAppServer/Limits/requestBodyBytes``).
    public var body: Data
    /// The client's address: the connection's, or behind a trusted proxy the one it forwarded
    /// (see ``WebAppServer/Deployment``).
    public var clientAddress: String
    /// `http`, or `https` when a trusted proxy says the client used TLS.
    public var scheme: String

    public init(method: String, location: WebLocation?, headers: [String: String] = [:], body: Data = Data(),
                clientAddress: String = "", scheme: String = "http") {
        self.method = method
        self.location = location
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.clientAddress = clientAddress
        self.scheme = scheme
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
/// closed, and closed but not yet freed) for whoever has its token (it is off without one). More routes (images, a health check) can be added
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
///
/// Clients that are not a browser cannot take it down either: every request, body and
/// WebSocket message is bounded, slow and idle clients are timed out, and connections are
/// capped in all and per client address (see ``Limits``).
public final class WebAppServer: Sendable {
    let sessions: WebSessions
    private let log: @Sendable (String) -> Void
    private let refusals: RefusalLog
    private let routes = Mutex<[(method: String, path: String, prefix: Bool, handler: @Sendable (WebRequest) async -> WebResponse)]>([])
    /// The host names requests may use (`nil`: any, when listening on every address).
    let allowedHosts: Set<String>?
    /// Frames waiting to be written to one socket before it is closed as too slow (the page
    /// reconnects and catches up).
    static let outgoingLimit = 512
    /// Added to every message in each direction (`--latency`): a slow network, felt.
    let latency: Duration
    /// Up to this much more, at random, on every message (in order, as over TCP): a jittery network.
    let jitter: Duration
    /// The token `/stats` asks for (`nil`: no `/stats`).
    let statsToken: String?
    /// Its public host names and the proxies in front of it.
    public let deployment: Deployment
    /// What clients may take.
    public let limits: Limits
    /// What the app adds to every page's head (its title suffix, stylesheets).
    public let pageHead: PageShell.Head
    private let address: any SocketAddress
    private let table: ConnectionTable
    private let running = Mutex<(task: Task<Void, any Error>?, port: UInt16?, failure: (any Error)?)>((nil, nil, nil))

    /// A server for `sessions` on `host`:`port` (port 0: any free port; see
    /// ``waitUntilListening()``), within `limits`; `latency` delays every WebSocket message both
    /// ways, and `jitter` up to that much more at random (each message still in order), to try
    /// an app on a slow or jittery network. `/stats` answers only with `statsToken`, as
    /// `Authorization: Bearer <token>` or `?token=<token>` (without one it is a 404). Behind a
    /// reverse proxy, `deployment` names the public host names and the proxy. `head` is what the
    /// app adds to every page: a title suffix, its stylesheets (served by its own routes).
    public init(host: String = "127.0.0.1", port: UInt16, sessions: WebSessions, limits: Limits = Limits(), deployment: Deployment = Deployment(),
                head: PageShell.Head = PageShell.Head(), latency: Duration = .zero, jitter: Duration = .zero, statsToken: String? = nil,
                log: @escaping @Sendable (String) -> Void) throws {
        self.sessions = sessions
        self.pageHead = head
        self.log = log
        self.limits = limits
        self.latency = latency
        self.jitter = jitter
        self.statsToken = statsToken.flatMap { $0.isEmpty ? nil : $0 }
        refusals = RefusalLog(log: log)
        self.deployment = deployment
        allowedHosts = Self.allowedHosts(listeningOn: host).map { $0.union(deployment.hostNames.map { Self.hostName($0) }) }
        address = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        // Below the process's file limit, with room for the listener, the pool and logs.
        let files = Int(sysconf(Int32(_SC_OPEN_MAX)))
        table = ConnectionTable(limit: files > 128 ? min(limits.connections, files - 64) : limits.connections, perAddressLimit: limits.connectionsPerAddress,
                                unlimited: Set(deployment.trustedProxies))
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

    static func isAllowedHost(_ request: RequestHead, _ allowed: Set<String>?) -> Bool {
        guard let allowed else { return true }
        guard let host = request["host"] else { return false }
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

    /// Listens until cancelled (or ``stop()``).
    public func run() async throws {
        let work = Task {
            do {
                try await self.listen()
            } catch {
                self.running.withLock { $0.failure = error }
                throw error
            }
        }
        running.withLock { $0.task = work }
        try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }

    /// Waits until the server listens; its port then. Throws what stopped it from listening
    /// (an address in use, say).
    public func waitUntilListening() async throws -> UInt16 {
        while true {
            let (port, failure) = running.withLock { ($0.port, $0.failure) }
            if let port { return port }
            if let failure { throw failure }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        guard let task = running.withLock({ $0.task }) else { return }
        task.cancel()
        _ = await task.result
    }

    /// The connections open now.
    var connectionCount: Int { table.count }

    private func listen() async throws {
        let pool = Self.makePool()
        try await pool.prepare()
        let listener = try Socket(domain: Int32(type(of: address).family))
        defer { try? listener.close() }
        try listener.setValue(true, for: .localAddressReuse)
        try listener.bind(to: address)
        try listener.listen(maxPendingConnection: 1024)
        let port: UInt16 = switch try listener.sockname() {
        case .ip4(_, let port), .ip6(_, let port): port
        case .unix: 0
        }
        let accepting = try AsyncSocket(socket: listener, pool: pool)
        running.withLock { $0.port = port }
        defer { running.withLock { $0.port = nil } }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await pool.run() }
                group.addTask { await self.reap() }
                group.addTask { await self.accept(on: accepting) }
                try await group.next()
                group.cancelAll()
            }
        } catch is CancellationError {
        }
        for record in table.all { record.cancel() }
    }

    static func makePool() -> some AsyncSocketPool {
        #if canImport(Darwin)
        return .kQueue()
        #elseif canImport(CSystemLinux)
        return .ePoll()
        #else
        return .poll()
        #endif
    }

    /// Accepts connections until cancelled: each is admitted (under the caps) and served by a
    /// task of its own, or answered with the refusal and closed.
    private func accept(on listener: AsyncSocket) async {
        while !Task.isCancelled {
            let client: AsyncSocket
            do {
                client = try await listener.accept()
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                // Out of files, say: wait rather than stop accepting for good.
                refusals("could not accept a connection: \(error)")
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            // A patch is a small write: without TCP_NODELAY, Nagle's algorithm holds one until
            // the page's delayed ACK of the one before (about 40 ms).
            try? client.socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY)))
            let peer: String = switch try? client.socket.remotePeer() {
            case .ip4(let host, _), .ip6(let host, _): host
            case .unix(let path): path
            case nil: "unknown"
            }
            switch table.admit(peer, deadline: .now + limits.requestTimeout) {
            case .failure(let refusal):
                refusals("refused a connection from \(peer): \(refusal.reason)")
                _ = try? client.socket.write(Self.refusal(refusal), from: 0)
                try? client.close()
            case .success(let record):
                let task = Task {
                    await self.serve(client, record)
                    self.table.remove(record)
                }
                record.attach(task)
            }
        }
    }

    /// Closes connections past their deadline and pings quiet WebSockets, four times a second.
    private func reap() async {
        var closed = 0
        var reported = ContinuousClock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let now = ContinuousClock.now
            for record in table.all where record.check(now: now) { closed += 1 }
            if closed > 0, now - reported >= .seconds(1) {
                log("closed \(closed) connection\(closed == 1 ? "" : "s") that took too long (a request over \(limits.requestTimeout), idle over \(limits.keepAliveTimeout), or a silent WebSocket)")
                closed = 0
                reported = now
            }
        }
    }

    /// One connection: requests one after another (up to 1,000, as nginx keeps one), or a
    /// WebSocket.
    private func serve(_ socket: AsyncSocket, _ record: ConnectionRecord) async {
        defer { try? socket.close() }
        var reader = ByteReader(socket)
        for served in 0..<1000 {
            if served > 0 { record.expire(after: limits.keepAliveTimeout) }
            let head: RequestHead
            var body = Data()
            do {
                guard let bytes = try await reader.readHead(limit: limits.requestHeadBytes) else { return }
                record.expire(after: limits.requestTimeout)
                head = try RequestHead.parse(bytes)
                let length = try head.contentLength()
                if length > limits.requestBodyBytes {
                    throw HTTPRefusal(status: 413, reason: "The request's body is over \(limits.requestBodyBytes) bytes.")
                }
                if length > 0 { body = Data(try await reader.read(exactly: length)) }
            } catch let refusal as HTTPRefusal {
                refusals("refused a request from \(record.address): \(refusal)")
                _ = try? await socket.write(Self.refusal(refusal))
                await Self.linger(socket)
                return
            } catch {
                return  // the client went away, or took too long (cancelled)
            }
            let received = WebLocation(head.originForm)
            let location = received.flatMap { deployment.appLocation($0) }
            guard Self.isAllowedHost(head, allowedHosts) else {
                refusals("refused a request for host \(head["host"] ?? "none")")
                _ = try? await socket.write(Self.finish(.text("This server does not answer for that host name.", status: 421), head: false, keepAlive: false))
                await Self.linger(socket)
                return
            }
            if head.method == "GET", location?.path == "/ws" {
                guard Self.isSameOrigin(head) else {
                    log("refused a WebSocket from origin \(head["origin"] ?? "none") for host \(head["host"] ?? "none")")
                    _ = try? await socket.write(Self.finish(.text("Cross-origin WebSocket refused.", status: 403), head: false, keepAlive: false))
                    await Self.linger(socket)
                    return
                }
                await webSocket(head, reader: reader, socket: socket, record: record)
                return
            }
            if received != nil, location == nil {
                let page = WebResponse.html(PageShell.notFound(head: pageHead, base: deployment.path), status: 404)
                do {
                    try await socket.write(Self.finish(page, head: head.method == "HEAD", keepAlive: head.keepAlive))
                } catch {
                    return
                }
                if head.keepAlive { continue } else { return }
            }
            let isHead = head.method == "HEAD"
            let headers = Dictionary(head.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let request = WebRequest(method: isHead ? "GET" : head.method, location: location, headers: headers, body: body,
                                     clientAddress: deployment.client(peer: record.address, forwardedFor: head.values("x-forwarded-for")),
                                     scheme: deployment.scheme(peer: record.address, forwardedProto: head["x-forwarded-proto"]))
            let keepAlive = head.keepAlive && served < 999
            let response = await answer(request)
            do {
                try await socket.write(Self.finish(response, head: isHead, keepAlive: keepAlive))
            } catch {
                return
            }
            if !keepAlive { return }
        }
    }

    /// What a socket writes, and the socket's end.
    private enum Outgoing: Sendable {
        case message(SocketMessage)
        case ping
        case pong([UInt8])
    }

    /// A WebSocket, from its handshake to its close: frames read (each checked from its header
    /// before its payload is read) and handed to the session in order, the session's frames
    /// written, pings answered.
    private func webSocket(_ head: RequestHead, reader: ByteReader, socket: AsyncSocket, record: ConnectionRecord) async {
        let accept: String
        do {
            accept = try WebSocketHandshake.accept(head)
        } catch {
            refusals("refused a WebSocket upgrade: \(error)")
            var response = WebResponse.text(error.reason, status: error.status)
            if error.status == 426 { response.headers["Sec-WebSocket-Version"] = "13" }
            _ = try? await socket.write(Self.finish(response, head: false, keepAlive: false))
            await Self.linger(socket)
            return
        }
        let handshake = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
        do {
            try await socket.write(Data(handshake.utf8))
        } catch {
            return
        }
        let (out, outgoing) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .bufferingOldest(Self.outgoingLimit))
        let session = SessionSocket(sessions: sessions, log: log, send: { message in
            if case .dropped = outgoing.yield(.message(message)) { return false }
            return true
        }, finish: { outgoing.finish() })
        record.webSocket(idle: limits.webSocketIdleTimeout, ping: { outgoing.yield(.ping) })
        // With `--latency` (or `--jitter`), each message waits on its way in and out.
        var delayedIn: AsyncStream<SocketMessage>.Continuation?
        if latency > .zero || jitter > .zero {
            let (incoming, continuation) = AsyncStream<SocketMessage>.makeStream()
            delayedIn = continuation
            let delayed = SessionSocket.delayed(incoming, by: latency, jitter: jitter)
            Task {
                for await message in delayed {
                    if await !session.receive(message) { break }
                }
            }
        }
        let inbound = delayedIn
        let toWrite = SessionSocket.delayed(out, by: latency, jitter: jitter)
        // Each side says whether it was the writer, and the reader whether the client broke the protocol.
        let broken = await withTaskGroup(of: (writer: Bool, broken: Bool).self) { group in
            group.addTask {
                await Self.writeFrames(toWrite, to: socket)
                return (true, false)
            }
            group.addTask {
                var reader = reader
                let (code, broken) = await self.readFrames(&reader, record: record, outgoing: outgoing) { message in
                    if let inbound {
                        inbound.yield(message)
                        return true
                    }
                    return await session.receive(message)
                }
                inbound?.finish()
                if let code { outgoing.yield(.message(.close(code))) }
                outgoing.finish()
                return (false, broken)
            }
            // The server ended the socket: stop reading. The client did: let the close be
            // written, for at most 5 s.
            var broken = false
            if let first = await group.next() {
                broken = first.broken
                if first.writer { group.cancelAll() } else { record.expire(after: .seconds(5)) }
            }
            while let next = await group.next() { broken = broken || next.broken }
            return broken
        }
        await session.ended()
        // A client that broke the protocol may still be sending: its close frame must not be
        // lost to a reset.
        if broken { await Self.linger(socket) }
    }

    /// Before closing a socket whose client may still be sending (a refused request, a frame
    /// over the limit): stop writing, and read what comes, for up to 2 s or 1 MB, so the
    /// answer already written is not lost to a reset (nginx's lingering close). Closing with
    /// unread bytes resets the connection, and a reset can discard the answer before the client
    /// reads it (seen with a 300 KB request line when the bound was 256 KB).
    static func linger(_ socket: AsyncSocket) async {
        _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var discarded = 0
                while discarded < 1024 * 1024, let bytes = try? await socket.read(atMost: 16 * 1024) { discarded += bytes.count }
            }
            group.addTask { try? await Task.sleep(for: .seconds(2)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Reads frames until the client closes or breaks the protocol: the close code to answer
    /// with (`nil` when there is nothing to answer: the socket went, or the session ended it),
    /// and whether the client broke the protocol.
    private func readFrames(_ reader: inout ByteReader, record: ConnectionRecord, outgoing: AsyncStream<Outgoing>.Continuation,
                            deliver: (SocketMessage) async -> Bool) async -> (UInt16?, broken: Bool) {
        var message: [UInt8] = []
        var messageOpcode: UInt8?
        while true {
            let header: FrameHeader
            do {
                let start = try await reader.peek(2)
                let size = FrameHeader.size(secondByte: start[start.startIndex + 1])
                guard let parsed = FrameHeader.parse(try await reader.peek(size)) else { return (nil, false) }
                header = parsed
            } catch {
                return (nil, false)
            }
            record.heard()
            if let problem = header.problem() {
                refusals("closed a WebSocket from \(record.address): \(problem.reason)")
                return (problem.code, true)
            }
            if header.opcode < 8 {
                if (header.opcode == FrameHeader.continuation) != (messageOpcode != nil) {
                    refusals("closed a WebSocket from \(record.address): a frame out of order in a fragmented message")
                    return (1002, true)
                }
                if UInt64(message.count) + header.length > UInt64(limits.messageBytes) {
                    refusals("closed a WebSocket from \(record.address): a message of \(UInt64(message.count) + header.length) bytes (the limit is \(limits.messageBytes)), refused from its frame's header")
                    return (1009, true)
                }
            }
            reader.skip(header.size)
            var payload: [UInt8]
            do {
                payload = try await reader.read(exactly: Int(header.length))
            } catch {
                return (nil, false)
            }
            if let mask = header.mask {
                for index in payload.indices { payload[index] ^= mask[index & 3] }
            }
            switch header.opcode {
            case FrameHeader.ping:
                outgoing.yield(.pong(payload))
            case FrameHeader.pong:
                continue
            case FrameHeader.close:
                if payload.count == 1 { return (1002, true) }
                return (payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1000, false)
            default:
                if messageOpcode == nil { messageOpcode = header.opcode }
                message += payload
                guard header.fin else { continue }
                let bytes = message, opcode = messageOpcode
                message = []
                messageOpcode = nil
                let received: SocketMessage
                if opcode == FrameHeader.text {
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        refusals("closed a WebSocket from \(record.address): a text message that is not UTF-8")
                        return (1007, true)
                    }
                    received = .text(text)
                } else {
                    received = .data(Data(bytes))
                }
                if await !deliver(received) { return (nil, false) }
            }
        }
    }

    /// Writes the session's frames until it closes the socket (or the socket goes).
    private static func writeFrames(_ out: AsyncStream<Outgoing>, to socket: AsyncSocket) async {
        for await item in out {
            let frame: Data
            var last = false
            switch item {
            case .message(.text(let text)): frame = FrameHeader.encode(opcode: FrameHeader.text, payload: text.utf8)
            case .message(.data(let data)): frame = FrameHeader.encode(opcode: FrameHeader.binary, payload: data)
            case .message(.close(let code)):
                frame = FrameHeader.encode(opcode: FrameHeader.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
                last = true
            case .ping: frame = FrameHeader.encode(opcode: FrameHeader.ping, payload: [UInt8]())
            case .pong(let payload): frame = FrameHeader.encode(opcode: FrameHeader.pong, payload: payload)
            }
            do {
                try await socket.write(frame)
            } catch {
                return
            }
            if last { return }
        }
        _ = try? await socket.write(FrameHeader.encode(opcode: FrameHeader.close, payload: [0x03, 0xE8]))
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
        case "/stats" where statsToken.map { Self.sameToken(request.headers["authorization"], "Bearer " + $0) || Self.sameToken(request[query: "token"], $0) } ?? false:
            let (open, closed, leaked) = await MainActor.run { (sessions.openCount, sessions.closedCount, sessions.leakedCount) }
            return .json("{\"open\":\(open),\"closed\":\(closed),\"leaked\":\(leaked)}")
        default:
            break
        }
        guard request.method == "GET" else { return .text("\(request.method) is not allowed here.", status: 405) }
        guard let location = request.location else { return .html(PageShell.notFound(head: pageHead, base: deployment.path), status: 400) }
        // Another site's script (a no-cors fetch) must not open sessions; a link the user
        // follows from another site is a navigation, and fine.
        if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site",
           request.headers["sec-fetch-mode"] != "navigate" {
            log("refused a new session for a \(site) \(request.headers["sec-fetch-mode"] ?? "") request")
            return .text("Pages are opened by navigating to them.", status: 403)
        }
        let base = deployment.path, head = pageHead
        let page: (status: Int, html: String) = await MainActor.run {
            switch sessions.open(at: location) {
            case .opened(let session): return (200, PageShell.html(for: session, head: head, base: base))
            case .notFound: return (404, PageShell.notFound(head: head, base: base))
            case .full: return (503, "")
            }
        }
        if page.status == 503 { return .text("Too many open sessions; close a tab and try again.", status: 503) }
        return .html(page.html, status: page.status)
    }

    /// The response as sent: the security headers added; for HEAD, the length of the body
    /// without the body.
    static func finish(_ response: WebResponse, head: Bool, keepAlive: Bool) -> Data {
        let headers = securityHeaders.merging(response.headers, uniquingKeysWith: { _, mine in mine }).sorted { $0.key < $1.key }
        return encodeResponse(status: response.status, headers: headers.map { ($0.key, $0.value) }, body: head ? Data() : response.body,
                              bodyLength: response.body.count, keepAlive: keepAlive)
    }

    /// A refused request's answer: its status, why, and the connection closed.
    static func refusal(_ refusal: HTTPRefusal) -> Data {
        finish(.text(refusal.reason + "\n", status: refusal.status), head: false, keepAlive: false)
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    /// Whether `given` is `expected`, in a time that does not depend on where they differ.
    static func sameToken(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }

    /// A browser sends the page's origin; it must name the host (and port) the page came from.
    static func isSameOrigin(_ request: RequestHead) -> Bool {
        guard let origin = request["origin"], let host = request["host"] else { return false }
        guard let schemeEnd = origin.range(of: "://") else { return false }
        return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()
    }
}

/// Refusals, logged at most once a second (a client sending garbage in a loop must not make the
/// server write a line for each), with the count of those left out.
final class RefusalLog: Sendable {
    private let log: @Sendable (String) -> Void
    private let state = Mutex<(second: Int, skipped: Int)>((-1, 0))

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    func callAsFunction(_ line: String) {
        let second = Int(Date().timeIntervalSince1970)
        let skipped: Int? = state.withLock { state in
            guard state.second != second else {
                state.skipped += 1
                return nil
            }
            defer { state = (second, 0) }
            return state.skipped
        }
        guard let skipped else { return }
        log(skipped > 0 ? "\(line) (\(skipped) more refused before it, not logged)" : line)
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
