#if WebServer
import Dispatch
import Foundation
import NIOCore
import WebUI

/// One connection, on its event loop, from its first byte to its close: requests one after
/// another (up to ``WebAppServer/Limits/requestsPerConnection``, as nginx keeps one), or a WebSocket.
///
/// Every length is checked before anything is read or kept for it: a request's head against
/// ``WebAppServer/Limits/requestHeadBytes`` as it arrives, its body from its `Content-Length`, a
/// WebSocket message from its frame's header. A connection has one deadline at a time (a
/// request's, a kept connection's, a WebSocket's silence), checked by one timer.
///
/// A WebSocket's messages go to its session on the session's executor, all that one read brought
/// in one hop; the session's frames come back to this loop to be written.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum State {
        /// Reading a request (``HTTPRequestReader``: its head, then its body).
        case reading
        /// A route or a page is being answered; what comes meanwhile waits in the buffer.
        case answering
        /// A WebSocket.
        case webSocket
        /// Refused: what comes is read and dropped (``WebAppServer/Limits/lingeringBytes``, for
        /// ``WebAppServer/Limits/lingeringTime``), so that the answer already
        /// written is not lost to a reset (nginx's lingering close). Closing with unread bytes
        /// resets the connection, and a reset can discard the answer before the client reads it.
        case lingering(discarded: Int)
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
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?

    // The WebSocket's state.
    private var session: SessionSocket?
    private var frames: WebSocketReader
    private var inbox = SessionInbox()
    /// Reading is paused: the session is behind by more than ``SessionInbox/limit`` messages, or the
    /// server is going away. Setting it turns the channel's reading off or back on.
    private var readingPaused = false {
        didSet {
            guard readingPaused != oldValue else { return }
            context?.channel.setOption(ChannelOptions.autoRead, value: !readingPaused).whenFailure { _ in }
        }
    }
    private var closeSent = false
    /// Frames written while the socket could not take more; past the limit the page is closed
    /// (it reconnects and catches up).
    private var framesWhileBlocked = 0
    /// The server is stopping (``WebAppServer/stop()``): the request being answered is the
    /// last, and a WebSocket closes with 1001 once its session has answered what was read.
    private var goingAway = false

    init(server: WebAppServer, address: String, refusal: HTTPRefusal?) {
        self.server = server
        self.address = address
        self.refusal = refusal
        deadline = ConnectionDeadline(limits: server.limits, now: .now())
        requests = HTTPRequestReader(headBytes: server.limits.requestHeadBytes, bodyBytes: server.limits.requestBodyBytes)
        frames = WebSocketReader(messageBytes: server.limits.messageBytes)
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
        timer?.cancel()
        timer = nil
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
        timer?.cancel()
        timer = nil
        if refusal == nil { server.table.remove(context.channel, from: address) }
        if let session {
            self.session = nil
            handOver(to: session)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .closed:
            return
        case .lingering(let discarded):
            let total = discarded + bytes.readableBytes
            state = .lingering(discarded: total)
            if total >= server.limits.lingeringBytes { context.close(promise: nil) }
            return
        case .webSocket:
            deadline.heard(now: .now())
        default:
            break
        }
        if buffer == nil || buffer!.readableBytes == 0 {
            buffer = bytes
        } else {
            buffer!.writeBuffer(&bytes)
        }
        process()
        // A read's buffer is as big as the reads before it were (up to 64 KB): an idle
        // connection keeps none.
        if buffer?.readableBytes == 0 { buffer = nil }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        deliverInbox()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { framesWhileBlocked = 0 }
        context.fireChannelWritabilityChanged()
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
    /// answering a request closes after its response; a WebSocket closes with 1001 ("going
    /// away") as soon as no message it read waits for its session's answer: what the page sent
    /// before is answered, what it sends after is not read (the grace bounds a session that
    /// never answers). Its session then waits for the page, as after any close; the page
    /// reconnects to the server it finds and sends again whatever was not answered.
    private func goAway() {
        guard !goingAway, let context else { return }
        goingAway = true
        switch state {
        case .reading where requests.isBetweenRequests && (buffer?.readableBytes ?? 0) == 0:
            state = .closed
            context.close(promise: nil)
        case .webSocket:
            // What the page sends from now on is not read (it sends it again to the server it
            // reconnects to): a page that keeps typing faster than its session answers would
            // otherwise keep the close waiting until the grace.
            readingPaused = true
            closeIfAnswered()
        case .reading, .answering, .lingering, .closed:
            break
        }
    }

    /// Going away, with no batch at the session and none waiting: the close, after every reply.
    private func closeIfAnswered() {
        guard goingAway, case .webSocket = state else { return }
        guard inbox.isAnswered else { return }
        closeWebSocket(SocketMessage.goingAway, broken: true)
    }

    // MARK: HTTP

    /// Reads what the buffer holds, in the state the connection is in: requests
    /// (``HTTPRequestReader``), each answered before the next is read, or a WebSocket's frames.
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
        if case .webSocket = state { readFrames() }
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

    /// Writes a refusal, stops writing, and lingers (unless what came after the request already
    /// fills ``WebAppServer/Limits/lingeringBytes``: then it closes once the refusal is written).
    private func refuse(_ response: Data) {
        guard let context else { return }
        let discarded = buffer?.readableBytes ?? 0
        state = .lingering(discarded: discarded)
        buffer = nil
        deadline.lingering(now: .now())
        arm()
        let full = discarded >= server.limits.lingeringBytes
        context.writeAndFlush(wrapOutboundOut(Self.bytes(response, context.channel.allocator))).assumeIsolated().whenComplete { _ in
            if full { context.close(promise: nil) } else { context.close(mode: .output, promise: nil) }
        }
    }

    // MARK: WebSocket

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
        state = .webSocket
        deadline.heard(now: .now())
        arm()
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let client = server.deployment.client(peer: address, forwardedFor: head.values("x-forwarded-for"))
        session = SessionSocket(sessions: server.sessions, browser: WebAppServer.browserKey(head.cookie),
                                client: client.isEmpty ? nil : client, log: server.log, send: { messages in
            loop.execute { for message in messages { handler.value.send(message) } }
        })
    }

    /// Reads the frames the buffer holds (``WebSocketReader``) and runs what they say.
    private func readFrames() {
        guard case .webSocket = state, buffer != nil else { return }
        for event in frames.read(&buffer!) {
            switch event {
            case .message(let message):
                inbox.read(message)
            case .ping(let payload):
                write(opcode: FrameHeader.pong, payload)
            case .close(let code):
                closeWebSocket(code, broken: false)
            case .refuse(let code, let reason):
                server.refusals("closed a WebSocket from \(address): \(reason)")
                closeWebSocket(code, broken: true)
            }
        }
    }

    /// Hands the messages read so far to the session, in one hop to its executor, unless a
    /// batch is already there (then they wait for it: their order is kept, and a flood waits for
    /// the session).
    private func deliverInbox() {
        guard let session, let context else { return }
        guard let batch = inbox.nextBatch() else {
            if inbox.isFull { readingPaused = true }
            return
        }
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        session.receive(batch) { replies, _ in
            loop.execute { handler.value.batchHandled(replies) }
        }
    }

    /// The socket is closing: the messages still waiting go to the session (after the batch it
    /// may be handling: the session's executor keeps their order), then its end; nothing read is lost.
    private func handOver(to session: SessionSocket) {
        session.end(with: inbox.takeRest())
    }

    /// The session handled a batch: what it sent meanwhile is written, and the next batch goes.
    private func batchHandled(_ replies: [SocketMessage]) {
        inbox.answered()
        for reply in replies { send(reply) }
        if !goingAway, case .webSocket = state { readingPaused = false }
        deliverInbox()
        closeIfAnswered()
    }

    /// A message from the session (called on this loop): a frame for the page, or the close.
    private func send(_ message: SocketMessage) {
        guard case .webSocket = state, let context else { return }
        switch message {
        case .text(let text):
            if !context.channel.isWritable {
                framesWhileBlocked += 1
                if framesWhileBlocked > WebAppServer.outgoingLimit {
                    server.log("closed a connection that stopped reading (\(WebAppServer.outgoingLimit) frames waiting)")
                    context.close(promise: nil)
                    return
                }
            }
            write(opcode: FrameHeader.text, Array(text.utf8))
        case .data(let data):
            write(opcode: FrameHeader.binary, Array(data))
        case .close(let code):
            closeWebSocket(code, broken: false)
        }
    }

    private func write(opcode: UInt8, _ payload: [UInt8]) {
        guard let context, !closeSent else { return }
        var frame = context.channel.allocator.buffer(capacity: payload.count + 10)
        FrameHeader.write(opcode: opcode, length: payload.count, into: &frame)
        frame.writeBytes(payload)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// Sends a close frame with `code`; then closes, or, when the client broke the protocol
    /// (it may still be sending), lingers so the close is not lost to a reset.
    private func closeWebSocket(_ code: UInt16, broken: Bool) {
        guard let context else { return }
        if let session {
            self.session = nil
            handOver(to: session)
        }
        if closeSent { return }
        write(opcode: FrameHeader.close, [UInt8(code >> 8), UInt8(code & 0xFF)])
        closeSent = true
        if broken {
            state = .lingering(discarded: 0)
            buffer = nil
            readingPaused = false  // lingering reads (and discards) until the page closes too
            deadline.lingering(now: .now())
            arm()
            context.close(mode: .output, promise: nil)
        } else {
            state = .closed
            context.close(promise: nil)
        }
    }

    // MARK: Deadlines

    /// Makes sure the timer fires by the time the deadline (or a WebSocket's ping) is due.
    private func arm() {
        guard let context else { return }
        let due = deadline.nextCheck
        if let timerDeadline, timerDeadline <= due { return }
        timer?.cancel()
        timerDeadline = due
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            timerDeadline = nil
            check()
        }
    }

    /// The timer looks: what ``ConnectionDeadline`` says is due is done.
    private func check() {
        guard let context else { return }
        switch state {
        case .closed:
            return
        case .answering:
            arm()
            return
        default:
            break
        }
        switch deadline.due(now: .now()) {
        case .expired:
            if case .lingering = state {
                context.close(promise: nil)
            } else if case .reading = state, requests.isBetweenRequests, keptAlive, (buffer?.readableBytes ?? 0) == 0 {
                // A kept-alive connection with no new request: closed at its keep-alive timeout
                // without a refusal line, as nginx does at its keepalive_timeout (a browser keeps
                // such connections open for minutes; closing them is routine, not a refusal).
                state = .closed
                context.close(promise: nil)
            } else {
                server.refusals("closed a connection from \(address) that took too long (a request over \(server.limits.requestTimeout), idle over \(server.limits.keepAliveTimeout), or a silent WebSocket)")
                state = .closed
                context.close(promise: nil)
            }
            return
        case .ping:
            write(opcode: FrameHeader.ping, [])
        case .wait:
            break
        }
        arm()
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

extension ByteBuffer {
    /// The next `length` bytes as `Data`.
    mutating func readData(length: Int) -> Data? {
        guard let bytes = readBytes(length: length) else { return nil }
        return Data(bytes)
    }
}
#endif
