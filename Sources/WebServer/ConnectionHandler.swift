#if WebServer
import Dispatch
import Foundation
import NIOCore
import WebUI

/// One connection's HTTP, on its event loop, from its first byte: requests one after another (up
/// to ``WebAppServer/Limits/requestsPerConnection``, as nginx keeps one), each read by
/// ``HTTPRequestReader`` and answered before the next is read. A request for the WebSocket puts a
/// ``WebSocketHandler`` in this one's place; a refusal puts a ``LingeringHandler`` there.
///
/// Every length is checked before anything is read or kept for it: a request's head against
/// ``WebAppServer/Limits/requestHeadBytes`` as it arrives, its body from its `Content-Length`. A
/// connection has one deadline at a time (a request's, a kept connection's), checked by one timer.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum State {
        /// Reading a request (``HTTPRequestReader``: its head, then its body).
        case reading
        /// A route or a page is being answered; what comes meanwhile waits in the buffer.
        case answering
        /// Closed, or handed to another handler (a WebSocket's, a lingering one).
        case closed
    }

    private let server: WebAppServer
    /// The client's address (the connection's peer).
    let address: String
    /// Why the connection was refused at once (over a cap), or `nil`.
    private let refusal: HTTPRefusal?
    private var context: ChannelHandlerContext?
    private(set) var state = State.reading
    private var requests: HTTPRequestReader
    private var buffer: ByteBuffer?
    /// Whether a response was written and the connection kept alive for the next request.
    private var keptAlive = false
    private var served = 0

    private var deadline: ConnectionDeadline
    private var timer = DeadlineTimer()
    /// The server is stopping (``WebAppServer/stop()``): the request being answered is the last.
    private var goingAway = false

    init(server: WebAppServer, address: String, refusal: HTTPRefusal?) {
        self.server = server
        self.address = address
        self.refusal = refusal
        deadline = ConnectionDeadline(limits: server.limits, now: .now())
        requests = HTTPRequestReader(headBytes: server.limits.requestHeadBytes, bodyBytes: server.limits.requestBodyBytes)
        server.handlersInMemory.add(1, ordering: .relaxed)
    }

    deinit {
        server.handlersInMemory.subtract(1, ordering: .relaxed)
    }

    // MARK: Events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The channel closed and its pipeline let go of the handler: the context (which holds the
    /// handler) and the timers (whose tasks hold it too) are let go in turn, so the connection's
    /// memory is freed (kept, every connection ever served stayed in memory: a cycle of handler
    /// and context that LeakSanitizer found, issue 57).
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        timer.cancel()
    }

    func channelActive(context: ChannelHandlerContext) {
        if let refusal {
            server.refusals("refused a connection from \(address): \(refusal.reason)")
            refuse(WebAppServer.refusal(refusal))
            return
        }
        arm()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        timer.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if case .closed = state { return }
        buffer.keep(&bytes)
        process()
        buffer.dropIfRead()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset, a broken pipe: the connection is gone.
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        goAway()
    }

    /// The server is stopping. A connection between requests closes now; one reading or
    /// answering a request closes after its response (a WebSocket's handler closes with 1001:
    /// ``WebSocketHandler``).
    private func goAway() {
        guard !goingAway, let context else { return }
        goingAway = true
        switch state {
        case .reading where requests.isBetweenRequests && (buffer?.readableBytes ?? 0) == 0:
            state = .closed
            context.close(promise: nil)
        case .reading, .answering, .closed:
            break
        }
    }

    // MARK: HTTP

    /// Reads the requests the buffer holds (``HTTPRequestReader``), each answered before the
    /// next is read.
    private func process() {
        while case .reading = state, buffer != nil {
            let readingHead = requests.isReadingHead
            let event = requests.next(&buffer!)
            // A head came: the body has the request's time from now.
            if readingHead, !requests.isReadingHead { deadline.request(now: .now()) }
            switch event {
            case nil:
                return
            case .request(let head, let body):
                handle(head, body: body)
            case .refuse(let error):
                server.refusals("refused a request from \(address): \(error)")
                refuse(WebAppServer.refusal(error))
            }
        }
    }

    /// A whole request: refused, upgraded to a WebSocket, or answered.
    private func handle(_ head: RequestHead, body: Data) {
        served += 1
        let received = WebLocation(head.originForm)
        let location = received.flatMap { self.server.deployment.appLocation($0) }
        guard WebAppServer.isAllowedHost(head, server.allowedHosts) else {
            server.refusals("refused a request for host \(head["host"] ?? "none")")
            refuse(WebAppServer.finish(.text("This server does not answer for that host name.", status: 421), head: false, keepAlive: false))
            return
        }
        if head.method == "GET", location?.path == "/ws" {
            upgrade(head)
            return
        }
        let isHead = head.method == "HEAD"
        let keepAlive = head.keepAlive && served < server.limits.requestsPerConnection && !goingAway
        if received != nil, location == nil {
            let page = WebResponse.html(PageShell.notFound(head: server.pageHead, base: server.deployment.path), status: 404)
            respond(WebAppServer.finish(page, head: isHead, keepAlive: keepAlive), keepAlive: keepAlive)
            return
        }
        let deployment = server.deployment, server = self.server
        var headers = Dictionary(head.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        headers["cookie"] = head.cookie
        let request = WebRequest(method: isHead ? "GET" : head.method, location: location, headers: headers, body: body,
                                 clientAddress: deployment.client(peer: address, forwardedFor: head.values("x-forwarded-for")),
                                 scheme: deployment.scheme(peer: address, forwardedProto: head["x-forwarded-proto"]))
        guard let context else { return }
        state = .answering
        // A slow route is not the client's fault: no deadline while it answers.
        deadline.answering()
        let promise = context.eventLoop.makePromise(of: Data.self)
        promise.completeWithTask { WebAppServer.finish(await server.answer(request), head: isHead, keepAlive: keepAlive) }
        promise.futureResult.assumeIsolated().whenSuccess { [self] response in
            guard case .answering = state else { return }
            respond(response, keepAlive: keepAlive)
        }
    }

    /// Writes a response; then reads the next request, or closes.
    private func respond(_ response: Data, keepAlive: Bool) {
        guard let context else { return }
        let written = context.writeAndFlush(wrapOutboundOut(Self.bytes(response, context.channel.allocator)))
        guard keepAlive, !goingAway else {
            state = .closed
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        state = .reading
        keptAlive = true
        deadline.keptAlive(now: .now())
        process()
    }

    /// Writes a refusal, stops writing, and lingers (``LingeringHandler``; unless what came
    /// after the request already fills ``WebAppServer/Limits/lingeringBytes``: then it closes
    /// once the refusal is written).
    private func refuse(_ response: Data) {
        guard let context else { return }
        let discarded = buffer?.readableBytes ?? 0
        state = .closed
        buffer = nil
        timer.cancel()
        let full = discarded >= server.limits.lingeringBytes
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(Self.bytes(response, channel.allocator))).whenComplete { _ in
            if full { channel.close(promise: nil) } else { channel.close(mode: .output, promise: nil) }
        }
        LingeringHandler.take(over: self, context: context, limits: server.limits, discarded: discarded)
    }

    // MARK: WebSocket

    /// Answers a WebSocket handshake and puts a ``WebSocketHandler`` in this handler's place,
    /// with what came after the request.
    private func upgrade(_ head: RequestHead) {
        guard let context else { return }
        guard WebAppServer.isSameOrigin(head) else {
            server.refusals("refused a WebSocket from origin \(head["origin"] ?? "none") for host \(head["host"] ?? "none")")
            refuse(WebAppServer.finish(.text("Cross-origin WebSocket refused.", status: 403), head: false, keepAlive: false))
            return
        }
        let accept: String
        do {
            accept = try WebSocketHandshake.accept(head)
        } catch {
            server.refusals("refused a WebSocket upgrade: \(error)")
            var response = WebResponse.text(error.reason, status: error.status)
            if error.status == 426 { response.headers["Sec-WebSocket-Version"] = "13" }
            refuse(WebAppServer.finish(response, head: false, keepAlive: false))
            return
        }
        let handshake = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: handshake)), promise: nil)
        state = .closed
        timer.cancel()
        let rest = buffer
        buffer = nil
        let server = self.server, address = self.address
        let client = server.deployment.client(peer: address, forwardedFor: head.values("x-forwarded-for"))
        let browser = WebAppServer.browserKey(head.cookie)
        let cookie = head.cookie
        let signIn = server.signIn.withLock { $0 }.map { setup in
            SocketSignIn(lookUp: { await server.signInState(cookie: cookie) }, requiring: setup.requiring)
        }
        let webSocket = WebSocketHandler(server: server, address: address, after: rest, goingAway: goingAway) { send in
            SessionSocket(sessions: server.sessions, browser: browser, client: client.isEmpty ? nil : client, signIn: signIn, log: server.log, send: send)
        }
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandler(webSocket, position: .after(self))
        } catch {
            context.close(promise: nil)
            return
        }
        pipeline.removeHandler(context: context, promise: nil)
    }

    // MARK: Deadlines

    /// Makes sure the timer fires by the time the deadline is due.
    private func arm() {
        guard let context else { return }
        timer.arm(by: deadline.nextCheck, on: context.eventLoop) { [self] in
            timer.fired()
            check()
        }
    }

    /// The timer looks: a request or a kept connection past its deadline is closed.
    private func check() {
        guard let context else { return }
        switch state {
        case .closed:
            return
        case .answering:
            arm()
            return
        case .reading:
            break
        }
        guard deadline.due(now: .now()) == .expired else {
            arm()
            return
        }
        state = .closed
        if requests.isBetweenRequests, keptAlive, (buffer?.readableBytes ?? 0) == 0 {
            // A kept-alive connection with no new request: closed at its keep-alive timeout
            // without a refusal line, as nginx does at its keepalive_timeout (a browser keeps
            // such connections open for minutes; closing them is routine, not a refusal).
            context.close(promise: nil)
        } else {
            server.refusals("closed a connection from \(address) that took too long (a request over \(server.limits.requestTimeout), idle over \(server.limits.keepAliveTimeout))")
            context.close(promise: nil)
        }
    }

    // MARK: Helpers

    static func bytes(_ data: Data, _ allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: data.count)
        _ = data.withUnsafeBytes { buffer.writeBytes($0) }
        return buffer
    }
}

extension Duration {
    /// The same span as NIO counts it.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension Optional where Wrapped == ByteBuffer {
    /// Keeps a read's bytes after what is kept (the read's own buffer when nothing is).
    ///
    /// What was read of the kept buffer is let go before it grows: a peer whose messages never
    /// end with a read (a file's chunks, each a little longer than a read) always leaves part of
    /// one kept, and without this the buffer would keep every byte it ever held (a 25 MB file
    /// cost its connection 25 MB). The bytes moved are at most those let go, so each is moved at
    /// most once on average.
    mutating func keep(_ read: inout ByteBuffer) {
        if self == nil || self!.readableBytes == 0 {
            self = read
        } else {
            if self!.readerIndex >= self!.readableBytes { self!.discardReadBytes() }
            self!.writeBuffer(&read)
        }
    }

    /// Lets go of a buffer that was read to its end: a read's buffer is as big as the reads
    /// before it were (up to 64 KB), and an idle connection keeps none.
    mutating func dropIfRead() {
        if self?.readableBytes == 0 { self = nil }
    }
}

extension ByteBuffer {
    /// The next `length` bytes as `Data`.
    mutating func readData(length: Int) -> Data? {
        guard let bytes = readBytes(length: length) else { return nil }
        return Data(bytes)
    }
}
#endif
