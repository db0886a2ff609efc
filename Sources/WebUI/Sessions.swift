import Dispatch
import Foundation
import MVVM
import Signals
import Synchronization

/// The sessions of a server: one per browser tab.
public final class WebSessions: Sendable {
    public struct Limits: Sendable {
        /// How many sessions may be open at once; a new tab beyond it is refused.
        public var sessions = 200
        /// How long a session waits for its page to reconnect.
        public var reconnectGrace: Duration = .seconds(30)
        /// Frames kept for a page that reconnects, at most (those it said it applied are not).
        public var framesKept = 256
        public var bytesKept = 1 << 20
        /// Messages a page may send per second, on average, and at once: a tab that floods its
        /// session has the excess refused (and logged once a second) instead of making the
        /// server do unbounded work for it. A person types under 20 keys a second; the defaults
        /// leave room for scripted typing (the keystroke benchmark's 1,000 keys a second).
        public var messagesPerSecond = 1_000
        public var messageBurst = 5_000
        /// How many sessions one client address may hold (behind a trusted proxy, the client's
        /// own address): a quarter of ``sessions`` unless set, so that one address cannot lock
        /// everyone else out. Raise it when many users share an address (a NAT, an office).
        public var sessionsPerAddress: Int
        /// Lines a second the sessions log about what they refused (messages, sessions,
        /// connections); past it, the count of those left out is said on the next line.
        public var refusalLinesPerSecond = 20
        /// Bytes of files a session's page may be sending at once (a file field's uploads in
        /// progress), reserved from each file's declared size before any of its bytes is taken:
        /// an upload that would pass it is refused with a message. (Each file is limited by its
        /// field's `maxSize`, the files a session received by its fields' `maxCount`.)
        public var uploadBytesPerSession = 256_000_000
        /// Bytes of files all sessions' pages may be sending at once, reserved as above: what
        /// the server's temporary folder must have room for.
        public var uploadBytes = 2_000_000_000
        /// Bytes of files the sessions of one client address may be sending at once (behind a
        /// trusted proxy, the client's own address): a quarter of ``uploadBytes`` unless set,
        /// so that one address cannot take the whole budget.
        public var uploadBytesPerAddress: Int {
            get { setUploadBytesPerAddress ?? max(1, uploadBytes / 4) }
            set { setUploadBytesPerAddress = newValue }
        }
        private var setUploadBytesPerAddress: Int?

        public init(sessions: Int = 200, reconnectGrace: Duration = .seconds(30), sessionsPerAddress: Int? = nil) {
            self.sessions = sessions
            self.reconnectGrace = reconnectGrace
            self.sessionsPerAddress = sessionsPerAddress ?? max(1, sessions / 4)
        }
    }

    /// The registry, shared by every connection's thread and every session's executor.
    private struct State {
        var sessions: [String: WebSession] = [:]
        /// Open sessions by the client address that opened them.
        var perClient: [String: Int] = [:]
        /// Sessions being opened (their app's content being made, outside the lock).
        var opening = 0
        var closedCount = 0
        var closedWatch: [WeakSessionParts] = []
        /// Sessions closed since the allocator last gave memory back, and whether it is about to.
        var closedSinceTrim = 0
        var trimScheduled = false
    }

    private let state = Locked(State())
    private let make: Make
    public let limits: Limits
    /// The bytes of files being received by every session (``Limits/uploadBytes``).
    let uploadBudget: UploadBudget

    /// Deletes every file the sessions' pages sent that is still in a temporary file (arriving,
    /// or received and not kept by a view model): what a server does once it has stopped, so
    /// that none outlives it. The sessions are not closed.
    public func discardUploads() {
        uploadBudget.discardAll()
    }
    public let log: @Sendable (String) -> Void
    /// What the sessions refuse (messages, new sessions, connections), logged through `log` at
    /// most ``Limits/refusalLinesPerSecond`` lines a second, with the count of those left out.
    package let refusals: RefusalLog

    /// How the app's content is made: on any session's executor (on the main actor for the
    /// addresses `onMainActor` names, by `mainActorRoutes` when the app gave it), or always on
    /// the main actor.
    private enum Make: Sendable {
        case anywhere(@Sendable (Document, WebLocation) -> (any WebSessionContent)?, onMainActor: @Sendable (WebLocation) -> Bool,
                      mainActorRoutes: (@MainActor (Document, WebLocation) -> (any WebSessionContent)?)? = nil)
        case mainActor(@MainActor (Document, WebLocation) -> (any WebSessionContent)?)
    }

    /// Whether the app's sessions all run on the main actor (its view models are `@MainActor`),
    /// not each on an executor of its own.
    public var runsOnMainActor: Bool {
        if case .mainActor = make { return true }
        return false
    }

    /// Whether a session opened at `location` runs on the main actor: all of them for an app on
    /// the main actor; those the app names (``init(limits:log:onMainActorAt:mainActorRoutes:routes:)``) for one
    /// whose sessions run each on an executor of its own.
    public func runsOnMainActor(at location: WebLocation) -> Bool {
        switch make {
        case .mainActor: return true
        case .anywhere(_, let onMainActor, _): return onMainActor(location)
        }
    }

    /// Writes a line to standard error (`WebUI: ` and the line): where sessions report, unless
    /// told otherwise, what they refused and why, so a developer sees it while developing.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("WebUI: \(line)\n".utf8))
    }

    /// Sessions whose content `make` builds on each new page's document; the page is at `/`
    /// (any other address is not found). `log` gets what sessions refused and why (standard
    /// error unless told otherwise).
    public convenience init(limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
                            make: @escaping @Sendable (Document) -> any WebSessionContent) {
        self.init(limits: limits, log: log, routes: { document, location in location.path == "/" ? make(document) : nil })
    }

    /// Sessions whose content `routes` builds on each new page's document, for the address the
    /// browser asked for (`/flickr?q=sunset`); `nil` for an address the app has no screen for
    /// (the server answers 404). A server runs each session on an executor of its own, and
    /// calls `routes` there.
    public init(limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
                routes: @escaping @Sendable (Document, WebLocation) -> (any WebSessionContent)?) {
        self.limits = limits
        uploadBudget = UploadBudget(limit: limits.uploadBytes, perAddress: limits.uploadBytesPerAddress)
        self.log = log
        refusals = RefusalLog(linesPerSecond: limits.refusalLinesPerSecond, log: log)
        make = .anywhere(routes, onMainActor: { _ in false })
    }

    /// Sessions of an app with a few `@MainActor` view models: a session opened at an address
    /// `onMainActor` names runs on the main actor, every other on an executor of its own.
    /// `routes` is called on the session's executor, whichever it is. Each of the app's screens
    /// must say whether it needs the main actor the same way for a session opened at its address
    /// and for one that gets there by navigating: a session on its own executor that is to show
    /// a main-actor screen asks the page to load it as a new page (``Document/load(_:)``),
    /// whose session is opened on the main actor.
    ///
    /// Deprecated: `routes` is `@Sendable`, so the compiler cannot check that it builds a
    /// `@MainActor` view model only on the main actor (the app had to write
    /// `MainActor.assumeIsolated`). ``init(limits:log:onMainActorAt:mainActorRoutes:routes:)``
    /// makes those sessions' content in a `@MainActor` closure; an app with addresses uses
    /// ``init(addresses:services:limits:log:screens:)`` and registers its main-actor screens
    /// with `register(_:describedOnMainActor:)`.
    @available(*, deprecated, message: "use init(limits:log:onMainActorAt:mainActorRoutes:routes:), whose mainActorRoutes is checked by the compiler to run on the main actor, or init(addresses:services:screens:)")
    public init(limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
                onMainActorAt onMainActor: @escaping @Sendable (WebLocation) -> Bool,
                routes: @escaping @Sendable (Document, WebLocation) -> (any WebSessionContent)?) {
        self.limits = limits
        uploadBudget = UploadBudget(limit: limits.uploadBytes, perAddress: limits.uploadBytesPerAddress)
        self.log = log
        refusals = RefusalLog(linesPerSecond: limits.refusalLinesPerSecond, log: log)
        make = .anywhere(routes, onMainActor: onMainActor)
    }

    /// Sessions of an app with a few `@MainActor` screens, checked by the compiler: a session
    /// opened at an address `onMainActor` names runs on the main actor, and its content is made
    /// there by `mainActorRoutes` (which may build `@MainActor` view models and draw their
    /// screens; its content conforms on the main actor, `final class ClockPage: @MainActor
    /// WebSessionContent`); every other session runs on an executor of its own, its content made
    /// by `routes`. A session on its own executor that is to show a main-actor screen asks the
    /// page to load it as a new page (``Document/load(_:)``).
    public init(limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
                onMainActorAt onMainActor: @escaping @Sendable (WebLocation) -> Bool,
                mainActorRoutes: @escaping @MainActor (Document, WebLocation) -> (any WebSessionContent)?,
                routes: @escaping @Sendable (Document, WebLocation) -> (any WebSessionContent)?) {
        self.limits = limits
        uploadBudget = UploadBudget(limit: limits.uploadBytes, perAddress: limits.uploadBytesPerAddress)
        self.log = log
        refusals = RefusalLog(linesPerSecond: limits.refusalLinesPerSecond, log: log)
        make = .anywhere(routes, onMainActor: onMainActor, mainActorRoutes: mainActorRoutes)
    }

    /// Sessions of an app whose view models are `@MainActor`: every session runs on the main
    /// actor (one thread for all of them), and `routes` is called there.
    public init(limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void = WebSessions.standardError,
                onMainActor routes: @escaping @MainActor (Document, WebLocation) -> (any WebSessionContent)?) {
        self.limits = limits
        uploadBudget = UploadBudget(limit: limits.uploadBytes, perAddress: limits.uploadBytesPerAddress)
        self.log = log
        refusals = RefusalLog(linesPerSecond: limits.refusalLinesPerSecond, log: log)
        make = .mainActor(routes)
    }

    /// The executor a new session should be opened on: one of its own, or the main one for an
    /// app on the main actor. Call ``open(at:resuming:owner:client:)`` there.
    public func executorForNewSession() -> WebExecutor {
        executorForNewSession(at: .root)
    }

    /// The executor a new session at `location` should be opened on: one of its own, or the
    /// main one for an address on the main actor (``runsOnMainActor(at:)``). Call
    /// ``open(at:resuming:owner:client:)`` there, with the same location.
    public func executorForNewSession(at location: WebLocation) -> WebExecutor {
        runsOnMainActor(at: location) ? .main : WebExecutor()
    }

    /// What opening a session gave.
    public enum Opening: Sendable {
        case opened(WebSession)
        /// The app has no screen at that address.
        case notFound
        /// The session limit is reached (and every session has had a page).
        case full
        /// The client's address holds its share of sessions (``Limits/sessionsPerAddress``),
        /// each of which has had a page.
        case fullForAddress
    }

    /// Starts a session for a new tab; `nil` when the limit is reached. At the limit, the
    /// oldest session no page ever connected to gives way (so requests for `/` that never open
    /// a page cannot lock real tabs out); if every session has had a page, the tab is refused.
    public func open() -> WebSession? {
        if case .opened(let session) = open(at: .root) { return session }
        return nil
    }

    /// Starts a session for a new tab at `location` (see ``open()`` for the limit), on the
    /// caller's executor (see ``executorForNewSession()``); `resuming` when it is for a page
    /// whose own session ended (the server restarted). `owner` is the secret of the browser it
    /// belongs to (the server's page cookie); `client` the address that asks, held to
    /// ``Limits/sessionsPerAddress``.
    public func open(at location: WebLocation, resuming: Bool = false, owner: String? = nil, client: String? = nil) -> Opening {
        open(at: location, resuming: resuming, owner: owner, client: client, signedIn: nil)
    }

    /// The same, for a page opened signed in (`signedIn`: who the server's accounts found from
    /// the browser's cookie): the session's ``WebSession/signedIn`` and its document's
    /// ``Document/visitor``.
    public func open(at location: WebLocation, resuming: Bool = false, owner: String? = nil, client: String? = nil,
                     signedIn: WebSignedIn?) -> Opening {
        // Who gives way, if the caps are reached: taken off the registry now (the place is this
        // session's), closed once the app has a screen there, put back if it has none.
        let limits = self.limits
        let reserved = state.withLock { state -> Result<[(WebSession, String)], Refusal> in
            var givingWay: [(WebSession, String)] = []
            if let client, state.perClient[client, default: 0] >= limits.sessionsPerAddress {
                guard let unused = Self.oldestUnused(in: state, from: client) else { return .failure(.address(client)) }
                givingWay.append((unused, "its address reached its share of sessions"))
            }
            if state.sessions.count + state.opening - givingWay.count >= limits.sessions {
                guard let unused = Self.oldestUnused(in: state, from: nil, besides: givingWay.first?.0) else { return .failure(.all) }
                givingWay.append((unused, "the session limit was reached"))
            }
            for (unused, _) in givingWay { Self.remove(unused, from: &state) }
            state.opening += 1
            if let client { state.perClient[client, default: 0] += 1 }
            return .success(givingWay)
        }
        let givingWay: [(WebSession, String)]
        switch reserved {
        case .failure(.address(let client)):
            refusals("refused a new session for \(client): it holds \(limits.sessionsPerAddress)")
            return .fullForAddress
        case .failure(.all):
            refusals("refused a new session: \(limits.sessions) are open")
            return .full
        case .success(let sessions):
            givingWay = sessions
        }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
        let session = WebSession(id: id, limits: limits, log: log, refusals: refusals, owner: owner, client: client, signedIn: signedIn)
        session.document.uploads.perSession = limits.uploadBytesPerSession
        session.document.uploads.shared = uploadBudget
        session.document.uploads.client = client
        let content = makeContent(session.document, location)
        guard let content else {
            session.document.close()
            state.withLock { state in
                state.opening -= 1
                if let client { Self.release(client, in: &state) }
                for (unused, _) in givingWay { Self.put(unused, into: &state) }
            }
            return .notFound
        }
        for (unused, why) in givingWay {
            unused.perform {
                unused.document.log("closed: \(why) and no page ever connected")
                unused.close()
            }
        }
        session.resumed = resuming
        session.onClose = { [weak self] session, owned in self?.didClose(session, owned: owned) }
        state.withLock { state in
            state.opening -= 1
            state.sessions[id] = session
        }
        session.start(content)
        session.closeUnlessConnected(within: limits.reconnectGrace)
        return .opened(session)
    }

    private enum Refusal: Error { case address(String), all }

    /// The app's content for a new session's document (on the session's executor).
    private func makeContent(_ document: Document, _ location: WebLocation) -> (any WebSessionContent)? {
        switch make {
        case .anywhere(let make, let onMainActor, let mainActorRoutes):
            let onMain = onMainActor(location)
            precondition(!onMain || MainScheduler.isMainThread, "a session at \(location) is opened on the main actor")
            guard onMain, let mainActorRoutes else { return make(document, location) }
            return Self.onMainActor(mainActorRoutes, document, location)
        case .mainActor(let make):
            precondition(MainScheduler.isMainThread, "the sessions of an app on the main actor are opened on the main actor")
            return Self.onMainActor(make, document, location)
        }
    }

    /// `make`'s content for a session whose executor is the main one (the caller checked it).
    private static func onMainActor(_ make: @MainActor (Document, WebLocation) -> (any WebSessionContent)?,
                                    _ document: Document, _ location: WebLocation) -> (any WebSessionContent)? {
        // SAFETY: made on the main actor and used only there: this session's executor is the
        // main one (checked by the caller).
        nonisolated(unsafe) let document = document
        return MainActor.assumeIsolated { Unchecked(make(document, location)) }.value
    }

    /// The oldest session (of `client`, or of anyone) that no page ever connected to, other
    /// than `other`.
    private static func oldestUnused(in state: State, from client: String?, besides other: WebSession? = nil) -> WebSession? {
        state.sessions.values.filter { !$0.everConnected && (client == nil || $0.client == client) && $0 !== other }
            .min { $0.opened < $1.opened }
    }

    /// Takes `session` off the registry, giving its address's share back.
    private static func remove(_ session: WebSession, from state: inout State) {
        guard state.sessions.removeValue(forKey: session.id) != nil else { return }
        if let client = session.client { release(client, in: &state) }
    }

    private static func put(_ session: WebSession, into state: inout State) {
        state.sessions[session.id] = session
        if let client = session.client { state.perClient[client, default: 0] += 1 }
    }

    private static func release(_ client: String, in state: inout State) {
        let left = state.perClient[client, default: 1] - 1
        state.perClient[client] = left > 0 ? left : nil
    }

    /// The open session with `id`.
    public func session(_ id: String) -> WebSession? {
        state.withLock { $0.sessions[id] }
    }

    /// The open sessions whose page was opened signed in with the sign-in `session` (to tell
    /// them it ended).
    public func sessions(signedInWith session: String) -> [WebSession] {
        state.withLock { $0.sessions.values.filter { $0.signedIn?.session == session } }
    }

    /// How many sessions are open.
    public var openCount: Int { state.withLock { $0.sessions.count } }

    /// The ids of the open sessions.
    public var ids: [String] { state.withLock { Array($0.sessions.keys) } }

    /// Sessions closed so far.
    public var closedCount: Int { state.withLock { $0.closedCount } }

    /// Closed sessions whose page or app content is still alive (should be 0 once closing has
    /// run its course: anything else is a leak).
    public var leakedCount: Int {
        state.withLock { state in
            state.closedWatch.removeAll { $0.isFreed }
            return state.closedWatch.count
        }
    }

    /// Called on the closed session's executor.
    private func didClose(_ session: WebSession, owned: [AnyObject]) {
        let parts = WeakSessionParts(session, owned: owned)
        let trim = state.withLock { state -> Bool in
            Self.remove(session, from: &state)
            state.closedCount += 1
            state.closedWatch.removeAll { $0.isFreed }
            state.closedWatch.append(parts)
            state.closedSinceTrim += 1
            guard state.closedSinceTrim >= Self.closesPerTrim, !state.trimScheduled else { return false }
            state.trimScheduled = true
            state.closedSinceTrim = 0
            return true
        }
        if trim { scheduleTrim() }
    }

    /// Closed sessions after which the allocator is asked to give memory back.
    static let closesPerTrim = 32

    /// Gives the memory of closed sessions back to the system, a second after they closed, on a
    /// background queue, at most once a second: glibc keeps what was freed in its arenas, so a
    /// server whose tabs closed would otherwise stay at its peak.
    private func scheduleTrim() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 1) { [weak self] in
            SystemAllocator.trim()
            self?.state.withLock { $0.trimScheduled = false }
        }
    }

    /// Closes every session, each on its executor (at once for those on the caller's).
    public func closeAll() {
        for session in state.withLock({ Array($0.sessions.values) }) {
            session.perform { session.close() }
        }
    }
}

/// A value handed out of `MainActor.assumeIsolated`, which takes only `Sendable` results.
private struct Unchecked<Value>: @unchecked Sendable {
    // SAFETY: made and used on the main actor only (the session's executor is the main one).
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Weak references to a closed session's parts, to see that they are freed.
private final class WeakSessionParts: @unchecked Sendable {
    // SAFETY: set once in `init`; read (from any thread) only through `isFreed`: weak
    // references are loaded atomically, and nothing is called on the objects.
    final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    weak var document: Document?
    weak var content: (any WebSessionContent)?
    let owned: [Weak]

    init(_ session: WebSession, owned: [AnyObject]) {
        document = session.document
        content = session.content
        self.owned = owned.map(Weak.init)
    }

    var isFreed: Bool { document == nil && content == nil && owned.allSatisfy { $0.object == nil } }
}
