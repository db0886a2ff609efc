#if WebServer
import NIOCore

/// A slow or jittery network, simulated (`--latency`, `--jitter`): each read of a connection and
/// each write is held for its delay (``DelayLine``: the latency, and up to the jitter more at
/// random, never before the one before it, as over TCP) and then passed on. Added in front of a
/// connection's handler only when a delay is asked for; the connection's handler never knows.
///
/// A flush and a close wait behind the writes before them. When the client goes, what it sent
/// that is still held is passed on at once, before the connection's end: nothing read is lost.
final class LatencyHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Outbound {
        case write(NIOAny, EventLoopPromise<Void>?)
        case flush
        case close(CloseMode, EventLoopPromise<Void>?)
    }

    private var delayIn: DelayLine
    private var delayOut: DelayLine
    /// What is held each way, in order, with when each is let through, and the timer for the first.
    private var heldIn: [(at: NIODeadline, data: NIOAny)] = []
    private var heldOut: [(at: NIODeadline, event: Outbound)] = []
    private var timerIn: Scheduled<Void>?
    private var timerOut: Scheduled<Void>?

    init(latency: Duration, jitter: Duration) {
        delayIn = DelayLine(latency: latency, jitter: jitter)
        delayOut = delayIn
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        heldIn.append((Self.deadline(&delayIn), data))
        armIn(context)
    }

    /// Passed on with each read let through, not when the socket's read ends.
    func channelReadComplete(context: ChannelHandlerContext) {}

    func channelInactive(context: ChannelHandlerContext) {
        timerIn?.cancel()
        timerIn = nil
        releaseIn(context, upTo: .distantFuture)
        context.fireChannelInactive()
    }

    private func armIn(_ context: ChannelHandlerContext) {
        guard timerIn == nil, let first = heldIn.first else { return }
        timerIn = context.eventLoop.assumeIsolated().scheduleTask(deadline: first.at) { [self] in
            timerIn = nil
            releaseIn(context, upTo: .now())
            armIn(context)
        }
    }

    private func releaseIn(_ context: ChannelHandlerContext, upTo now: NIODeadline) {
        var released = false
        while let first = heldIn.first, first.at <= now {
            heldIn.removeFirst()
            context.fireChannelRead(first.data)
            released = true
        }
        if released { context.fireChannelReadComplete() }
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        hold(.write(data, promise), at: Self.deadline(&delayOut), context)
    }

    func flush(context: ChannelHandlerContext) {
        hold(.flush, at: heldOut.last?.at ?? .now(), context)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        hold(.close(mode, promise), at: heldOut.last?.at ?? .now(), context)
    }

    private func hold(_ event: Outbound, at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        heldOut.append((deadline, event))
        guard timerOut == nil, let first = heldOut.first else { return }
        timerOut = context.eventLoop.assumeIsolated().scheduleTask(deadline: first.at) { [self] in
            timerOut = nil
            releaseOut(context)
        }
    }

    private func releaseOut(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        while let first = heldOut.first, first.at <= now {
            heldOut.removeFirst()
            switch first.event {
            case .write(let data, let promise): context.write(data, promise: promise)
            case .flush: context.flush()
            case .close(let mode, let promise): context.close(mode: mode, promise: promise)
            }
        }
        guard let first = heldOut.first else { return }
        timerOut = context.eventLoop.assumeIsolated().scheduleTask(deadline: first.at) { [self] in
            timerOut = nil
            releaseOut(context)
        }
    }

    /// The channel is gone: the timers are let go (they hold the handler), and what was still to
    /// be written fails as a write on a closed channel does.
    func handlerRemoved(context: ChannelHandlerContext) {
        timerIn?.cancel()
        timerOut?.cancel()
        timerIn = nil
        timerOut = nil
        heldIn = []
        let out = heldOut
        heldOut = []
        for (_, event) in out {
            switch event {
            case .write(_, let promise), .close(_, let promise): promise?.fail(ChannelError.ioOnClosedChannel)
            case .flush: break
            }
        }
    }

    private static func deadline(_ line: inout DelayLine) -> NIODeadline {
        let now = ContinuousClock.now
        return .now() + (line.release(arrived: now) - now).timeAmount
    }
}

/// When each read or write of a connection is let through with `--latency` and `--jitter`:
/// `latency` after it came and up to `jitter` more at random, never before the one before it (in
/// order, as over TCP; a slow or jittery network, simulated).
struct DelayLine {
    let latency: Duration
    let jitter: Duration
    private var previous: ContinuousClock.Instant?

    init(latency: Duration, jitter: Duration) {
        self.latency = latency
        self.jitter = jitter
    }

    /// When a message that came at `arrived` is let through.
    mutating func release(arrived: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let spread = jitter.components.seconds * 1_000_000_000 + jitter.components.attoseconds / 1_000_000_000
        let extra = spread > 0 ? Duration.nanoseconds(Int64.random(in: 0...spread)) : .zero
        let at = max(previous ?? arrived, arrived + latency + extra)
        previous = at
        return at
    }
}
#endif
