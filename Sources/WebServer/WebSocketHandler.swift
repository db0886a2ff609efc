#if WebServer
import NIOCore
import WebUI

/// A connection upgraded to a WebSocket, from the handshake to its close, put in the place of the
/// ``ConnectionHandler`` that read the upgrade: frames in (``WebSocketReader``), a page's
/// messages to its session on the session's executor, all that one read brought in one hop
/// (``SessionInbox``), the session's frames back out on this loop, pings while the page is
/// quiet, and the close.
final class WebSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: WebAppServer
    /// The client's address (the connection's peer).
    private let address: String
    private var context: ChannelHandlerContext?
    private var open = true
    /// Bytes read and not yet a whole frame (or, at first, what came after the upgrade request).
    private var buffer: ByteBuffer?
    private var deadline: ConnectionDeadline
    private var timer = DeadlineTimer()
    private var frames: WebSocketReader
    private(set) var inbox: SessionInbox
    private var session: SessionSocket?
    /// Made in ``handlerAdded(context:)``, when the loop is known.
    private let makeSession: (_ send: @escaping @Sendable ([SocketMessage]) -> Void) -> SessionSocket
    /// Reading is paused: the session is behind by more than ``WebAppServer/Limits/messagesWaiting`` messages, or the
    /// server is going away. Setting it turns the channel's reading off or back on.
    private var readingPaused = false {
        didSet {
            guard readingPaused != oldValue else { return }
            context?.channel.setOption(ChannelOptions.autoRead, value: !readingPaused).whenFailure { _ in }
        }
    }
    private var closeSent = false
    /// What the page has not read: past ``WebAppServer/Limits/outgoingBytes`` it is closed.
    private var backlog: OutgoingBacklog
    /// The server is stopping: the WebSocket closes with 1001 once its session has answered what
    /// was read.
    private var goingAway: Bool

    init(server: WebAppServer, address: String, after rest: ByteBuffer?, goingAway: Bool,
         session: @escaping (_ send: @escaping @Sendable ([SocketMessage]) -> Void) -> SessionSocket) {
        self.server = server
        self.address = address
        buffer = rest
        self.goingAway = goingAway
        makeSession = session
        deadline = ConnectionDeadline(limits: server.limits, now: .now())
        frames = WebSocketReader(messageBytes: server.limits.messageBytes)
        backlog = OutgoingBacklog(limit: server.limits.outgoingBytes)
        inbox = SessionInbox(limit: server.limits.messagesWaiting, byteLimit: server.limits.bytesWaiting)
        server.handlersInMemory.add(1, ordering: .relaxed)
    }

    deinit {
        server.handlersInMemory.subtract(1, ordering: .relaxed)
    }

    // MARK: Events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        session = makeSession { messages in
            loop.execute { for message in messages { handler.value.send(message) } }
        }
        deadline.heard(now: .now())
        arm()
        if goingAway {
            goingAway = false
            goAway()
        }
        if buffer?.readableBytes ?? 0 > 0 {
            readFrames()
            deliverInbox()
        }
    }

    /// The channel closed and its pipeline let go of the handler: the context and the timer
    /// (which hold the handler) are let go in turn, so the connection's memory is freed.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        timer.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        open = false
        timer.cancel()
        if let session {
            self.session = nil
            handOver(to: session)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard open else { return }
        var bytes = unwrapInboundIn(data)
        deadline.heard(now: .now())
        buffer.keep(&bytes)
        readFrames()
        buffer.dropIfRead()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        deliverInbox()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { backlog.drained() }
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

    /// The server is stopping: close with 1001 ("going away") as soon as no message read waits
    /// for the session's answer. What the page sends from now on is not read (it sends it again
    /// to the server it reconnects to): a page that keeps typing faster than its session answers
    /// would otherwise keep the close waiting until the grace.
    private func goAway() {
        guard !goingAway, open else { return }
        goingAway = true
        readingPaused = true
        closeIfAnswered()
    }

    /// Going away, with no batch at the session and none waiting: the close, after every reply.
    private func closeIfAnswered() {
        guard goingAway, open, inbox.isAnswered else { return }
        close(SocketMessage.goingAway, broken: true)
    }

    // MARK: Frames in

    /// Reads the frames the buffer holds (``WebSocketReader``) and runs what they say.
    private func readFrames() {
        guard open, buffer != nil else { return }
        for event in frames.read(&buffer!) {
            switch event {
            case .message(let message):
                inbox.read(message)
            case .ping(let payload):
                write(opcode: FrameHeader.pong, payload)
            case .close(let code):
                close(code, broken: false)
            case .refuse(let code, let reason):
                server.refusals("closed a WebSocket from \(address): \(reason)")
                close(code, broken: true)
            }
            guard open else { return }
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
        if !goingAway, open { readingPaused = false }
        deliverInbox()
        closeIfAnswered()
    }

    // MARK: Frames out

    /// A message from the session (called on this loop): a frame for the page, or the close.
    private func send(_ message: SocketMessage) {
        guard open, let context else { return }
        switch message {
        case .text(let text):
            let payload = Array(text.utf8)
            guard backlog.write(payload.count, writable: context.channel.isWritable) else {
                server.refusals("closed a WebSocket from \(address) that stopped reading (over \(backlog.limit) bytes waiting)")
                open = false
                context.close(promise: nil)
                return
            }
            write(opcode: FrameHeader.text, payload)
        case .data(let data):
            write(opcode: FrameHeader.binary, Array(data))
        case .close(let code):
            close(code, broken: false)
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
    /// (it may still be sending), lingers (``LingeringHandler``) so the close is not lost to a
    /// reset.
    private func close(_ code: UInt16, broken: Bool) {
        guard let context, open else { return }
        if let session {
            self.session = nil
            handOver(to: session)
        }
        write(opcode: FrameHeader.close, [UInt8(code >> 8), UInt8(code & 0xFF)])
        closeSent = true
        open = false
        buffer = nil
        timer.cancel()
        if broken {
            let channel = context.channel
            LingeringHandler.take(over: self, context: context, limits: server.limits, discarded: 0)
            channel.close(mode: .output, promise: nil)
        } else {
            context.close(promise: nil)
        }
    }

    // MARK: The deadline

    /// Makes sure the timer fires by the time the page's silence ends (or its ping is due).
    private func arm() {
        guard let context else { return }
        timer.arm(by: deadline.nextCheck, on: context.eventLoop) { [self] in
            timer.fired()
            check()
        }
    }

    /// The timer looks: a ping, or the close of a page silent past
    /// ``WebAppServer/Limits/webSocketIdleTimeout``.
    private func check() {
        guard open, let context else { return }
        switch deadline.due(now: .now()) {
        case .expired:
            server.refusals("closed a connection from \(address) that took too long (a request over \(server.limits.requestTimeout), idle over \(server.limits.keepAliveTimeout), or a silent WebSocket)")
            open = false
            context.close(promise: nil)
            return
        case .ping:
            write(opcode: FrameHeader.ping, [])
        case .wait:
            break
        }
        arm()
    }
}
#endif
