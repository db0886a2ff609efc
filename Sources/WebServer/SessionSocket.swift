#if WebServer
import Foundation
import Synchronization
import WebUI

/// A WebSocket message, either way.
enum SocketMessage: Sendable, Equatable {
    case text(String)
    case data(Data)
    /// A close, with its code (1000 normal, 1008 a policy violation, 1009 too big).
    case close(UInt16)

    static let policyViolation: UInt16 = 1008
}

/// One WebSocket's conversation with its session: the first message must be a `hello` naming an
/// open session (or a page whose session is gone, with its address: a new session there); every
/// message after it goes to that session, in order, on the main actor.
final class SessionSocket: Sendable {
    let sessions: WebSessions
    let log: @Sendable (String) -> Void
    private let send: @Sendable (SocketMessage) -> Bool
    private let finish: @Sendable () -> Void
    private let bound = Mutex<(session: WebSession, token: Int)?>(nil)

    /// `send` queues a message for the page (false: the queue is full); `finish` ends the
    /// socket from the server's side.
    init(sessions: WebSessions, log: @escaping @Sendable (String) -> Void, send: @escaping @Sendable (SocketMessage) -> Bool, finish: @escaping @Sendable () -> Void) {
        self.sessions = sessions
        self.log = log
        self.send = send
        self.finish = finish
    }

    /// Handles one message from the page; `false` when the socket is to close.
    func receive(_ message: SocketMessage) async -> Bool {
        switch message {
        case .text(let text):
            if let bound = bound.withLock({ $0 }) {
                await MainActor.run { bound.session.receive(text, token: bound.token) }
                return true
            }
            return await hello(text)
        case .data(let data):
            log("refused a binary message of \(data.count) bytes")
            return true
        case .close:
            return false
        }
    }

    /// The socket closed: its session waits for the page to come back.
    func ended() async {
        guard let bound = bound.withLock({ value in defer { value = nil }; return value }) else { return }
        await MainActor.run { bound.session.disconnect(token: bound.token) }
    }

    private func hello(_ text: String) async -> Bool {
        let sessions = self.sessions, log = self.log, send = self.send, finish = self.finish
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
            bound.withLock { $0 = pair }
            return true
        case .failure(let error):
            log("refused a connection: \(error.description)")
            let why = error == .unknownSession ? "This page\u{2019}s session has ended (the server restarted or the tab was away too long)." : "The page could not connect."
            _ = send(.text("{\"t\":\"x\",\"why\":\(Self.quoted(why))}"))
            _ = send(.close(SocketMessage.policyViolation))
            return false
        }
    }

    /// A socket as two streams: the page's messages in, the server's out (bounded: a page that
    /// stops reading while its session keeps changing is closed, and reconnects to catch up).
    /// `latency` holds every message that long, each way (a slow network, simulated).
    static func messages(sessions: WebSessions, latency: Duration = .zero, log: @escaping @Sendable (String) -> Void,
                         for client: AsyncStream<SocketMessage>) -> AsyncStream<SocketMessage> {
        let (out, continuation) = AsyncStream<SocketMessage>.makeStream(bufferingPolicy: .bufferingOldest(WebAppServer.outgoingLimit))
        let (toPage, toPageContinuation) = AsyncStream<SocketMessage>.makeStream(bufferingPolicy: .bufferingOldest(WebAppServer.outgoingLimit))
        let direct = latency == .zero
        if !direct {
            let delayedOut = delayed(toPage, by: latency)
            Task {
                for await message in delayedOut { continuation.yield(message) }
                continuation.finish()
            }
        }
        let socket = SessionSocket(sessions: sessions, log: log, send: { message in
            let result = direct ? continuation.yield(message) : toPageContinuation.yield(message)
            if case .dropped = result { return false }
            return true
        }, finish: {
            if direct { continuation.finish() } else { toPageContinuation.finish() }
        })
        let client = delayed(client, by: latency)
        Task {
            for await message in client {
                if await !socket.receive(message) { break }
            }
            await socket.ended()
            if direct { continuation.finish() } else { toPageContinuation.finish() }
        }
        return out
    }

    /// `stream`, each element held `latency` after it came, and up to `jitter` more at random,
    /// never before the one before it (in order, as over TCP; a slow or jittery network, simulated).
    static func delayed<Element: Sendable>(_ stream: AsyncStream<Element>, by latency: Duration, jitter: Duration = .zero) -> AsyncStream<Element> {
        guard latency > .zero || jitter > .zero else { return stream }
        let jitterNanoseconds = jitter.components.seconds * 1_000_000_000 + jitter.components.attoseconds / 1_000_000_000
        let (stamped, stamps) = AsyncStream<(ContinuousClock.Instant, Element)>.makeStream()
        let (out, continuation) = AsyncStream<Element>.makeStream()
        Task {
            for await element in stream { stamps.yield((ContinuousClock.now, element)) }
            stamps.finish()
        }
        Task {
            var previous = ContinuousClock.now
            for await (arrived, element) in stamped {
                let extra = jitterNanoseconds > 0 ? Duration.nanoseconds(Int64.random(in: 0...jitterNanoseconds)) : .zero
                previous = max(previous, arrived + latency + extra)
                try? await Task.sleep(until: previous, clock: .continuous)
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
#endif
