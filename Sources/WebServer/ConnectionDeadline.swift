#if WebServer
import NIOCore

/// A connection's one deadline at a time, and what is due when its timer looks, as a value (no
/// timer, no socket): a request's time (``WebAppServer/Limits/requestTimeout``: its head's from
/// its first byte, its body's from the head's end); none while a route answers; a kept
/// connection's wait for its next request (``WebAppServer/Limits/keepAliveTimeout``); a
/// WebSocket's silence (``WebAppServer/Limits/webSocketIdleTimeout``: the page is pinged after a
/// third of it and closed at its end, and anything heard from the page starts it again). A
/// refused connection's lingering close keeps its own time (``LingeringHandler``).
struct ConnectionDeadline {
    /// What the timer does when it looks.
    enum Due: Equatable {
        /// Nothing yet: look again at ``nextCheck``.
        case wait
        /// A quiet WebSocket: ping the page (a live page answers, and is heard).
        case ping
        /// The time is up.
        case expired
    }

    /// When the time is up.
    private(set) var at: NIODeadline
    /// The time is a WebSocket's silence.
    private(set) var isWebSocket = false
    /// The page was pinged in this silence.
    private(set) var pinged = false
    private let limits: WebAppServer.Limits

    /// A new connection: its first request's time, from `now`.
    init(limits: WebAppServer.Limits, now: NIODeadline) {
        self.limits = limits
        at = now + limits.requestTimeout.timeAmount
    }

    /// A request's time, from `now`.
    mutating func request(now: NIODeadline) {
        at = now + limits.requestTimeout.timeAmount
    }

    /// A route is answering: a slow route is not the client's fault, so there is no deadline.
    mutating func answering() {
        at = .distantFuture
    }

    /// A response was written and the connection kept: the wait for the next request.
    mutating func keptAlive(now: NIODeadline) {
        at = now + limits.keepAliveTimeout.timeAmount
    }

    /// A WebSocket opened, or its page was heard: its silence starts again.
    mutating func heard(now: NIODeadline) {
        isWebSocket = true
        pinged = false
        at = now + limits.webSocketIdleTimeout.timeAmount
    }

    /// When the timer must next look: the deadline, or a quiet WebSocket's ping, after a third
    /// of the silence it is allowed.
    var nextCheck: NIODeadline {
        guard isWebSocket, !pinged else { return at }
        return at - (limits.webSocketIdleTimeout * 2 / 3).timeAmount
    }

    /// What is due at `now` (a ping is due once a silence).
    mutating func due(now: NIODeadline) -> Due {
        if now >= at { return .expired }
        if isWebSocket, !pinged, now >= nextCheck {
            pinged = true
            return .ping
        }
        return .wait
    }
}
/// The one timer of a connection's handler: armed to fire by a deadline, never later; an earlier
/// deadline re-arms it, a later one leaves it (it looks again when it fires). On the channel's
/// event loop only.
struct DeadlineTimer {
    private var scheduled: Scheduled<Void>?
    private var due: NIODeadline?

    /// Makes sure `fire` runs by `deadline`.
    mutating func arm(by deadline: NIODeadline, on loop: any EventLoop, _ fire: @escaping () -> Void) {
        if let due, due <= deadline { return }
        scheduled?.cancel()
        due = deadline
        scheduled = loop.assumeIsolated().scheduleTask(deadline: deadline) { fire() }
    }

    /// The timer fired: the next `arm` schedules again.
    mutating func fired() {
        scheduled = nil
        due = nil
    }

    mutating func cancel() {
        scheduled?.cancel()
        scheduled = nil
        due = nil
    }
}
#endif
