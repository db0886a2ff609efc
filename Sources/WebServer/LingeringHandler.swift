#if WebServer
import NIOCore

/// A connection that was refused, or whose WebSocket broke the protocol, after its answer was
/// written: what still comes is read and dropped (up to ``WebAppServer/Limits/lingeringBytes``,
/// for ``WebAppServer/Limits/lingeringTime``), then the connection closes (nginx's lingering
/// close). Closing with unread bytes resets the connection, and a reset can discard the answer
/// before the client reads it.
///
/// The handler that refused puts this one in its place (``take(over:context:limits:discarded:)``)
/// and closes the connection's output (or all of it, when `discarded` already fills the limit)
/// once its answer is written.
final class LingeringHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let limits: WebAppServer.Limits
    private(set) var discarded: Int
    private var timer: Scheduled<Void>?

    init(limits: WebAppServer.Limits, discarded: Int) {
        self.limits = limits
        self.discarded = discarded
    }

    /// Puts a lingering handler in the place of `handler` (whose `context` it is): `discarded`
    /// bytes were already read after the answer.
    static func take(over handler: any RemovableChannelHandler, context: ChannelHandlerContext, limits: WebAppServer.Limits, discarded: Int) {
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandler(LingeringHandler(limits: limits, discarded: discarded), position: .after(handler))
        } catch {
            context.close(promise: nil)
        }
        pipeline.removeHandler(context: context, promise: nil)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Reading may have been paused (a WebSocket whose session was behind): lingering reads.
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limits.lingeringTime.timeAmount) {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        discarded += unwrapInboundIn(data).readableBytes
        if discarded >= limits.lingeringBytes { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
#endif
