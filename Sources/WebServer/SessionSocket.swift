#if WebServer
import Foundation
import Signals
import WebUI

/// How a socket finds who its cookie signs in (for a page whose session ended), and which
/// addresses need a user.
struct SocketSignIn: Sendable {
    let lookUp: @Sendable () async -> WebAppServer.SignInState
    let requiring: @Sendable (WebLocation) -> Bool
}

/// A WebSocket message, either way.
enum SocketMessage: Sendable, Equatable {
    case text(String)
    case data(Data)
    /// A close, with its code (1000 normal, 1008 a policy violation, 1009 too big).
    case close(UInt16)

    static let policyViolation: UInt16 = 1008
    /// The close of a server that is stopping (RFC 6455: "going away").
    static let goingAway: UInt16 = 1001
}

/// One WebSocket's conversation with its session: the first message must be a `hello` naming an
/// open session (or a page whose session is gone, with its address: a new session there); every
/// message after it goes to that session, in order, on the session's executor.
///
/// Messages come in batches (all that one read of the socket brought); each batch is one turn
/// on the session's executor, and what the session sends during it goes back with the batch's
/// end, in one hop to the connection's event loop.
final class SessionSocket: @unchecked Sendable {
    // SAFETY: `bound`, `done` and `outbox` are used only in the socket's turns, which run one at
    // a time on `executor` (chosen once, by the first batch, under the lock); the connection
    // hands over its next batch only after the last one's turn ended.
    let sessions: WebSessions
    let log: @Sendable (String) -> Void
    /// Writes messages to the page, in order (a `.close` last).
    private let send: @Sendable ([SocketMessage]) -> Void
    /// The browser secret the connection presented (its cookie), checked against the session's
    /// owner.
    private let browser: String?
    /// The client's address (behind a trusted proxy, the one it forwarded): a session this socket
    /// opens for a page whose session ended is counted against its share, as a page's is
    /// (``WebSessions/Limits/sessionsPerAddress``; issue 57).
    private let client: String?
    /// Who the connection's sign-in cookie signs in, asked only for a page whose session ended
    /// (an open session keeps the sign-in it was opened with), and the addresses that need a
    /// user: `nil` when the server has no accounts.
    private let signIn: SocketSignIn?
    /// What `signIn` found, for the hello of a page whose session ended.
    private var resumedSignIn: WebAppServer.SignInState = .noAccounts
    /// Where the socket's turns run: its session's executor.
    private let executor = Locked<WebExecutor?>(nil)
    private var bound: (session: WebSession, token: Int)?
    /// The socket is to close: what comes after is dropped.
    private var done = false
    /// What the session sent during the batch being handled (`nil` between batches).
    private var outbox: [SocketMessage]?

    /// `send` writes messages to the page, in order.
    init(sessions: WebSessions, browser: String? = nil, client: String? = nil, signIn: SocketSignIn? = nil, log: @escaping @Sendable (String) -> Void,
         send: @escaping @Sendable ([SocketMessage]) -> Void) {
        self.sessions = sessions
        self.browser = browser
        self.client = client
        self.signIn = signIn
        self.log = log
        self.send = send
    }

    /// Handles a batch of messages from the page, in order, in a turn on the session's
    /// executor; then calls `then` (on that executor) with what the session sent meanwhile (to be
    /// written after the batch) and whether the socket stays open.
    func receive(_ batch: [SocketMessage], then: @escaping @Sendable (_ replies: [SocketMessage], _ open: Bool) -> Void) {
        let (executor, resuming) = self.executor.withLock { executor -> (WebExecutor, Bool) in
            if let executor { return (executor, false) }
            let chosen = turns(for: batch.first)
            executor = chosen.executor
            return chosen
        }
        // A page whose session ended is opened again for whoever its cookie signs in: asked of
        // the database first (the connection hands over no other batch meanwhile).
        if resuming, let signIn {
            Task {
                let state = await signIn.lookUp()
                executor.run { [self] in
                    resumedSignIn = state
                    let (replies, open) = turn(batch)
                    then(replies, open)
                }
            }
            return
        }
        executor.run { [self] in
            let (replies, open) = turn(batch)
            then(replies, open)
        }
    }

    /// The messages still waiting and the socket's end, after any batch being handled: its
    /// session waits for the page to come back.
    func end(with rest: [SocketMessage], then: (@Sendable () -> Void)? = nil) {
        guard let executor = executor.withLock({ $0 }) else { then?(); return }
        executor.run { [self] in
            if !rest.isEmpty { _ = turn(rest) }
            ended()
            then?()
        }
    }

    /// The same, for tests: the batch's answer once its turn is over.
    func receive(_ batch: [SocketMessage]) async -> (replies: [SocketMessage], open: Bool) {
        await withCheckedContinuation { continuation in
            receive(batch) { replies, open in continuation.resume(returning: (replies, open)) }
        }
    }

    /// Where the turns of a socket whose first message is `first` run: the executor of the
    /// session its hello names; a new session's (the page's own ended); any, to be refused.
    private func turns(for first: SocketMessage?) -> (executor: WebExecutor, resuming: Bool) {
        guard case .text(let text) = first, case .hello(let id, _, let address)? = try? ClientMessage.parse(text) else {
            return (sessions.executorForNewSession(), false)
        }
        if let open = sessions.session(id) { return (open.executor, false) }
        return (sessions.executorForNewSession(at: address.flatMap(WebLocation.init) ?? .root), address != nil)
    }

    /// One turn: the batch handled in order; what the session sent meanwhile, and whether the
    /// socket stays open.
    private func turn(_ batch: [SocketMessage]) -> (replies: [SocketMessage], open: Bool) {
        outbox = []
        for message in batch where !receive(message) { break }
        defer { outbox = nil }
        return (outbox ?? [], !done)
    }

    /// Handles one message from the page; `false` when the socket is to close.
    private func receive(_ message: SocketMessage) -> Bool {
        guard !done else { return false }
        switch message {
        case .text(let text):
            if let bound {
                bound.session.receive(text, token: bound.token)
                return true
            }
            done = !hello(text)
            return !done
        case .data(let data):
            // A chunk of a file the page was told to send; before the hello, nothing takes one.
            if let bound {
                bound.session.receive(chunk: Array(data), token: bound.token)
            } else {
                sessions.refusals("refused a binary message of \(data.count) bytes before the page said hello")
            }
            return true
        case .close:
            done = true
            return false
        }
    }

    /// The socket closed: its session waits for the page to come back.
    private func ended() {
        done = true
        guard let bound else { return }
        self.bound = nil
        bound.session.disconnect(token: bound.token)
    }

    /// A message for the page: kept for the batch's end, or sent now.
    private func deliver(_ message: SocketMessage) {
        if outbox != nil {
            outbox!.append(message)
        } else {
            send([message])
        }
    }

    private func hello(_ text: String) -> Bool {
        do throws(ClientMessageError) {
            guard case .hello(let id, _, let address) = try ClientMessage.parse(text) else {
                throw .malformed("the first message must be a hello")
            }
            let session: WebSession
            if let open = sessions.session(id), open.executor.isCurrent {
                if let owner = open.owner, owner != browser { throw .otherBrowser }
                session = open
            } else if let address, let location = WebLocation(address),
                      // A session the hello named that closed before this turn leaves it on that
                      // session's executor, where a session for a main-actor address cannot be
                      // opened: the page is told its session ended, and opens a new page.
                      !sessions.runsOnMainActor(at: location) || WebExecutor.main.isCurrent {
                // Counted as a page's session is: a hello naming made-up sessions opens no more
                // than its address's share, and none past the total (issue 57).
                if let refusal = signInRefusal(at: location) {
                    deliver(.text("{\"t\":\"x\",\"why\":\(Self.quoted(refusal))}"))
                    deliver(.close(SocketMessage.policyViolation))
                    return false
                }
                switch sessions.open(at: location, resuming: true, owner: browser, client: client, signedIn: resumedSignIn.signedIn) {
                case .opened(let new):
                    log("a page of an ended session resumed as a new one at \(location)")
                    session = new
                case .full, .fullForAddress:
                    // The open logged the refusal; the page says why and offers to try again.
                    deliver(.text("{\"t\":\"x\",\"why\":\(Self.quoted(Self.tooManySessions))}"))
                    deliver(.close(SocketMessage.policyViolation))
                    return false
                case .notFound:
                    throw .unknownSession
                }
            } else {
                throw .unknownSession
            }
            // The session calls these on its executor, this socket's.
            let token = session.connect(send: { [weak self] frame in
                self?.deliver(.text(frame))
            }, close: { [weak self] in
                self?.deliver(.close(1000))
            })
            bound = (session, token)
            session.receive(text, token: token)
            return true
        } catch {
            sessions.refusals("refused a connection: \(error.description)")
            let why = switch error {
            case .unknownSession: "This page\u{2019}s session has ended (the server restarted or the tab was away too long)."
            case .otherBrowser: "This page\u{2019}s session belongs to another browser."
            default: "The page could not connect."
            }
            deliver(.text("{\"t\":\"x\",\"why\":\(Self.quoted(why))}"))
            deliver(.close(SocketMessage.policyViolation))
            return false
        }
    }

    /// Why a page whose session ended is not opened again at `location`: the database could not
    /// say who is signed in, or the address needs a user and the cookie signs in no one (the
    /// page's Reload then goes to the sign-in page).
    private func signInRefusal(at location: WebLocation) -> String? {
        switch resumedSignIn {
        case .unavailable(let why):
            sessions.refusals("refused to resume a page at \(location): \(why)")
            return "Signing in is unavailable right now (\(why)). Reload the page in a moment."
        case .signedOut where signIn?.requiring(location) ?? false:
            return "You are signed out. Reload the page to sign in."
        default:
            return nil
        }
    }

    /// What a page whose session could not be opened again is told: the server holds as many
    /// sessions as it may (for its address, or in all).
    static let tooManySessions = "The server has as many open pages as it can hold for now. Close a tab, then reload this page."

    /// A socket as two streams, for tests: the page's messages in, the server's out (bounded, as
    /// a connection's are).
    static func messages(sessions: WebSessions, browser: String? = nil, address: String? = nil, log: @escaping @Sendable (String) -> Void,
                                     for client: AsyncStream<SocketMessage>) -> AsyncStream<SocketMessage> {
        let (out, continuation) = AsyncStream<SocketMessage>.makeStream()
        let socket = SessionSocket(sessions: sessions, browser: browser, client: address, log: log, send: { messages in
            for message in messages {
                continuation.yield(message)
                if case .close = message { continuation.finish() }
            }
        })
        Task {
            for await message in client {
                let (replies, open) = await socket.receive([message])
                for reply in replies {
                    continuation.yield(reply)
                    if case .close = reply { continuation.finish() }
                }
                if !open { break }
            }
            await withCheckedContinuation { ended in socket.end(with: []) { ended.resume() } }
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
