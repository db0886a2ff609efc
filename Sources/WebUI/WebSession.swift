import Dispatch
import Foundation
import MVVM
import Signals
import Synchronization

/// What a session keeps alive besides its page: the app's navigator, its view models. Closed
/// with the session, on its executor.
public protocol WebSessionContent: AnyObject {
    /// Ends the app's work: close the navigator, dispose what the page does not own.
    func close()
    /// What must be freed once the session is closed (its view models, say): ``WebSessions``
    /// watches them weakly and counts any still alive as leaked.
    var ownedObjects: [AnyObject] { get }
}

extension WebSessionContent {
    public var ownedObjects: [AnyObject] { [] }
}

/// One browser tab: its ``Document``, the app behind it, and its connection.
///
/// A tab's first request makes the session and its page; the page then connects over a
/// WebSocket and says `hello` with the session id and the last frame it applied. Frames are kept
/// (up to ``WebSessions/Limits/framesKept``) until the page says it applied them: each of its
/// messages carries the last frame it applied (`q`), and a page with nothing to send says so a
/// second after frames stop (``ClientMessage/framesSeen(_:)``). A page that reconnects gets the
/// frames it missed, or the whole page again if they are gone. Messages it sent that were
/// handled are acknowledged in every frame, so a page resends only those that were not.
///
/// A session takes its turns on its own ``executor`` (the one it was opened on): its page, its
/// app's content and every message of its page are handled there, one at a time, while other
/// sessions take theirs on other threads.
public final class WebSession: @unchecked Sendable {
    // SAFETY: the mutable state is used only on `executor` (the session's turns: its page's
    // messages, its timers, its bindings); what other threads read (the sessions' registry, a
    // connection choosing where to send a batch) is immutable (`id`, `executor`, `owner`,
    // `client`, `signedIn`, `opened`) or atomic (`everConnected`).
    /// Where the session takes its turns.
    public let executor: WebExecutor
    /// The session's id: random, and the only key to it.
    public let id: String
    public let document: Document
    var content: (any WebSessionContent)?
    private var nextToken = 1
    private var kept: [(number: Int, text: String)] = []
    /// How many frames are kept for a reconnect (for tests).
    var keptFrameCount: Int { kept.count }
    private var keptBytes = 0
    private let limits: WebSessions.Limits
    private let log: @Sendable (String) -> Void
    var onClose: ((WebSession, [AnyObject]) -> Void)?
    /// Whether a page ever connected (read by the registry from any thread).
    private let connectedOnce = Atomic<Bool>(false)
    var everConnected: Bool { connectedOnce.load(ordering: .acquiring) }
    private var graceTimer = 0
    /// Whether the session has been closed.
    public var isClosed: Bool { closed.load(ordering: .acquiring) }
    private let closed = Atomic<Bool>(false)

    /// Where its refusals are logged: the sessions' shared, throttled log.
    private let refusals: RefusalLog

    init(id: String, limits: WebSessions.Limits, log: @escaping @Sendable (String) -> Void, refusals: RefusalLog,
         owner: String? = nil, client: String? = nil, signedIn: WebSignedIn? = nil) {
        executor = .current
        self.id = id
        self.owner = owner
        self.client = client
        self.signedIn = signedIn
        self.limits = limits
        self.log = log
        self.refusals = refusals
        document = Document()
        document.visitor = WebVisitor(client: client, signedIn: signedIn, browser: owner)
        document.log = { [id] message in log("session \(id.prefix(8)): \(message)") }
        document.onFrame = { [weak self] number, text in self?.deliver(number, text) }
    }

    func start(_ content: any WebSessionContent) {
        self.content = content
    }

    /// Whether a page is connected.
    public var isConnected: Bool { connectedNow.load(ordering: .acquiring) }
    private let connectedNow = Atomic<Bool>(false)
    /// The open connection; frames go to it once its page said hello (`greeted`), so a page
    /// never gets a new frame before the older ones it missed. Whether there is one is read from
    /// any thread through `isConnected`.
    /// Whether a page ever connected (the log then says it left, not that none came).
    private var hadPage = false
    private var connection: (token: Int, send: @Sendable (String) -> Void, close: @Sendable () -> Void, greeted: Bool)? {
        didSet { if (oldValue == nil) != (connection == nil) { connectedNow.store(connection != nil, ordering: .releasing) } }
    }

    /// Whether a page ever said hello to this session.
    public private(set) var wasGreeted = false
    /// Whether the session was opened for a page whose own session had ended (the server
    /// restarted): its first hello names that old session.
    public internal(set) var resumed = false
    /// When the session was opened (for evicting the oldest unused one).
    let opened = DispatchTime.now()
    /// The browser the session belongs to: the secret its page's cookie holds (see
    /// ``WebSessions/open(at:resuming:owner:client:)``); a connection that does not present it
    /// is refused. `nil`: any connection may attach (sessions opened without a server).
    public let owner: String?
    /// The client address that opened the session, counted against
    /// ``WebSessions/Limits/sessionsPerAddress``.
    public let client: String?
    /// Who its page was opened signed in as, if anyone (fixed for the session's life).
    public let signedIn: WebSignedIn?
    /// The highest message number the page has used, as far as the session has seen: the
    /// page's `hello` says how far it counted, and each message after it adds one. A message
    /// numbered past the next one is refused (it would make the session take every real
    /// message after it for one already handled).
    private var highestNumber = 0

    private func deliver(_ number: Int, _ text: String) {
        kept.append((number, text))
        keptBytes += text.utf8.count
        while kept.count > limits.framesKept || keptBytes > limits.bytesKept, let first = kept.first {
            keptBytes -= first.text.utf8.count
            kept.removeFirst()
        }
        if let connection, connection.greeted { connection.send(text) }
    }

    /// Forgets the kept frames up to `frame`: the page said it applied them. A forged number
    /// (past the last frame sent) only costs its own page a whole-page frame on its next
    /// reconnect.
    private func forgetFrames(through frame: Int) {
        let forgotten = kept.prefix { $0.number <= frame }
        guard !forgotten.isEmpty else { return }
        keptBytes -= forgotten.reduce(0) { $0 + $1.text.utf8.count }
        kept.removeFirst(forgotten.count)
    }

    /// Opens a connection that sends with `send`; the page's `hello` follows. A newer connection
    /// replaces an older one, which is told why and closed with `close`: either the page
    /// reconnected before its old socket was seen closed (that socket is gone, and so is the
    /// notice), or another tab of the same browser took the session (a duplicated tab, one that
    /// knew its id). The old tab then says so and offers to reload, instead of reconnecting
    /// and going on out of step with what the other tab did (issue 57).
    public func connect(send: @escaping @Sendable (String) -> Void, close: @escaping @Sendable () -> Void = {}) -> Int {
        let token = nextToken
        nextToken += 1
        if let old = connection {
            log("session \(id.prefix(8)): a new connection replaces the old one")
            old.send(Self.replacedNotice)
            old.close()
        }
        connection = (token, send, close, false)
        hadPage = true
        connectedOnce.store(true, ordering: .releasing)
        graceTimer += 1
        return token
    }

    /// What a connection that another replaced is told (the page shows it, with Reload, and
    /// stops).
    static let replacedNotice = "{\"t\":\"x\",\"why\":\"This page is open in another tab or window, which has taken it over. Reload to use it here.\"}"

    /// The page's `hello`: sends what it missed since frame `lastFrame` (or the whole page).
    func hello(lastFrame: Int?, token: Int, newSession: Bool = false) {
        guard let connection, connection.token == token, !connection.greeted else { return }
        document.flush()
        let current = document.frameNumber
        if newSession {
            connection.send(document.resetFrame(session: id))
        } else if let lastFrame, lastFrame == current {
            // Nothing missed.
        } else if let lastFrame, lastFrame < current, let first = kept.first, first.number <= lastFrame + 1 {
            for frame in kept where frame.number > lastFrame { connection.send(frame.text) }
            forgetFrames(through: lastFrame)
        } else {
            connection.send(document.resetFrame())
        }
        self.connection?.greeted = true
        wasGreeted = true
    }

    /// A message from the connection `token`: checked, then handled. A refused message is
    /// logged with its reason and otherwise ignored.
    public func receive(_ text: String, token: Int) {
        guard let connection, connection.token == token, !isClosed else { return }
        do {
            // A resumed session's first hello names the page's old session.
            var framesSeen: Int?
            let message = try ClientMessage.parse(text, session: resumed && !wasGreeted ? nil : id, framesSeen: &framesSeen)
            if case .hello = message {
                highestNumber = max(highestNumber, ClientMessage.sequenceNumber(in: text) ?? 0)
            } else if let number = message.sequence {
                guard number <= highestNumber + 1 else { throw ClientMessageError.numberedAhead(number, after: highestNumber) }
                highestNumber = max(highestNumber, number)
            }
            guard admit() else { return }
            // Only a message not handled before says what the page has now: one resent after a
            // reconnect (or meant for a page's old session, numbered in its old frames) says
            // what it had then.
            if let framesSeen, (message.sequence ?? .max) > document.acknowledged { forgetFrames(through: framesSeen) }
            switch message {
            case .hello(let session, let lastFrame, _):
                if session != id {
                    // A page whose session ended, resumed in this new one: the whole page, and
                    // the new id. What the page sent to the old session (its numbers up to the
                    // hello's `n`) is not taken here: its element ids were the old page's; the
                    // screen is rebuilt from the address, and the fields from what the page holds.
                    guard resumed else { throw ClientMessageError.otherSession }
                    if let sent = ClientMessage.sequenceNumber(in: text) { document.skipMessages(through: sent) }
                    hello(lastFrame: nil, token: token, newSession: true)
                } else {
                    hello(lastFrame: lastFrame, token: token)
                }
            case .bye:
                close()
            case .framesSeen:
                break
            case .event, .back, .navigate:
                try document.handle(message)
            }
        } catch let error as ClientMessageError {
            refusals("session \(id.prefix(8)): refused: \(error.description)")
            // A refused message still used its number (unless it was numbered past the next):
            // the page's next one follows it. A malformed one is answered, so the page stops
            // waiting for it (and does not resend it on every reconnect): a paste over the
            // length limit, say. Never one numbered past the next: that would silence the page.
            if case .numberedAhead = error { return }
            if let number = ClientMessage.sequenceNumber(in: text), number <= highestNumber + 1 {
                highestNumber = max(highestNumber, number)
                if case .malformed = error { document.acknowledge(number) }
            }
        } catch {
            refusals("session \(id.prefix(8)): refused: \(error)")
        }
    }

    /// A binary message from the connection `token`: a chunk of a file the page was told to
    /// send (``FileInput``). Chunks are not counted against the message budget: a file is many
    /// of them, and the server reads them only as fast as the session writes them (the
    /// server's `Limits.bytesWaiting`), each a bounded piece of work. A chunk for no
    /// upload of this page (another session's key, a made-up one), at the wrong offset or past
    /// its file's size is refused and logged; the upload it claimed, if any, ends and says so.
    public func receive(chunk: [UInt8], token: Int) {
        guard let connection, connection.token == token, !isClosed, connection.greeted else { return }
        do {
            try document.receive(chunk: chunk)
        } catch {
            refusals("session \(id.prefix(8)): refused: \(error.description)")
        }
    }

    /// The message budget (a token bucket): full at `messageBurst`, refilled at
    /// `messagesPerSecond`.
    private var budget: Double?
    private var budgetTime = DispatchTime.now().uptimeNanoseconds
    private var refused: (count: Int, since: UInt64) = (0, 0)

    /// Whether one more message may be handled now; a refused one is counted, and the count
    /// logged at most once a second.
    private func admit() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let capacity = Double(limits.messageBurst)
        let elapsed = Double(now &- budgetTime) / 1e9
        budgetTime = now
        let available = min(capacity, (budget ?? capacity) + elapsed * Double(limits.messagesPerSecond))
        if available >= 1 {
            budget = available - 1
            return true
        }
        budget = available
        refused.count += 1
        if now &- refused.since >= 1_000_000_000 {
            document.log("refused \(refused.count) messages over the limit of \(limits.messagesPerSecond) a second (burst \(limits.messageBurst))")
            refused = (0, now)
        }
        return false
    }

    /// The connection `token` closed: unless the page reconnects within the grace period, the
    /// session closes.
    public func disconnect(token: Int) {
        guard let connection, connection.token == token else { return }
        self.connection = nil
        // A file's bytes cannot come after a reconnect: its upload ends, and its field says so.
        document.uploads.interrupt()
        document.flush()
        closeUnlessConnected(within: limits.reconnectGrace)
    }

    /// Closes the session if no page is connected `grace` from now (a new session's page must
    /// connect in that time too: a tab that never does, or a script fetching `/` in a loop,
    /// does not keep sessions open).
    func closeUnlessConnected(within grace: Duration) {
        graceTimer += 1
        let timer = graceTimer
        _ = executor.run(after: grace) { [weak self] in
            guard let self, self.graceTimer == timer, self.connection == nil else { return }
            // A tab closed or gone offline, or a page that never came (a script fetching `/`).
            self.document.log(self.hadPage ? "closed: its page left and did not come back within \(grace)" : "closed: no page connected within \(grace)")
            self.close()
        }
    }

    /// Closes the session: its page's elements go (and their bindings end), the app's content is
    /// closed and let go.
    public func close() {
        guard !isClosed else { return }
        closed.store(true, ordering: .releasing)
        connection?.close()
        connection = nil
        kept = []
        let owned = content?.ownedObjects ?? []
        document.close()
        content?.close()
        onClose?(self, owned)
        onClose = nil
        content = nil
    }
}

extension WebSession {
    /// Runs `work` on the session's executor: at once when the caller is on it, otherwise
    /// after what is queued there.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        if executor.isCurrent { work() } else { executor.run(work) }
    }
}
