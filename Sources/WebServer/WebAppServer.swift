#if WebServer
import Foundation
import Signals
import NIOCore
import NIOPosix
import Synchronization
import WebUI

/// Serves WebUI sessions. Any address the app has a screen for opens a session (one per tab)
/// and returns its first page (an address it has none for is a 404 page with a link home);
/// `/mvvm.js` and `/mvvm.css` are the page's script and stylesheet (with an `ETag`: a reload
/// gets a 304), `/favicon.ico` its icon,
/// `/ws` the WebSocket a page talks to its session over, and `/stats` counts sessions (open,
/// closed, and closed but not yet freed) for whoever has its token (it is off without one). More routes (a health check) can be added
/// with ``route(_:method:handler:)``, and a folder of files with ``serveFiles(in:at:cacheControl:maximumBytes:)``. HEAD is answered as GET is, without the body.
///
/// It listens on 127.0.0.1 unless told otherwise. Other sites cannot use it through the
/// user's browser:
/// - a request whose `Host` is not a name of this server is refused (DNS rebinding: another
///   domain that resolves to 127.0.0.1), unless the server listens on every address;
/// - a WebSocket whose `Origin` is not this server is refused (another site's page cannot drive
///   a session);
/// - another site's script cannot open sessions (`Sec-Fetch-Site` other than a navigation);
/// - no other site may show its pages in a frame, and the browser runs only the page's own
///   script (the security headers on every response).
///
/// Clients that are not a browser cannot take it down either: every request, body and
/// WebSocket message is bounded, slow and idle clients are timed out, and connections are
/// capped in all and per client address (see ``Limits``).
public final class WebAppServer: Sendable {
    let sessions: WebSessions
    let log: @Sendable (String) -> Void
    let refusals: RefusalLog
    let routes = Locked<[(method: String, path: String, prefix: Bool, handler: @Sendable (WebRequest) async -> WebResponse)]>([])
    /// The host names requests may use (`nil`: any, when listening on every address).
    let allowedHosts: Set<String>?
    /// Added to everything sent each way, the page and the WebSocket's messages (`--latency`): a
    /// slow network, felt (``LatencyHandler``).
    let latency: Duration
    /// Up to this much more, at random, on each read and write (in order, as over TCP): a jittery network.
    let jitter: Duration
    /// The token `/stats` asks for (`nil`: no `/stats`).
    let statsToken: String?
    /// How people sign in (``useAccounts(_:signInPath:requiringSignIn:)``), if they do.
    let signIn = Locked<SignInSetup?>(nil)
    /// The subscription that loads anew the tabs whose sign-in ended.
    let signOutWatch = Locked<(any Disposable)?>(nil)
    /// Its public host names and the proxies in front of it.
    public let deployment: Deployment
    /// What clients may take.
    public let limits: Limits
    /// What the app adds to every page's head (its title suffix, stylesheets).
    public let pageHead: PageShell.Head
    private let host: String
    private let port: UInt16
    /// How many event loops serve its connections (`nil`: SwiftNIO's shared group, one per core).
    public let eventLoops: Int?
    /// Half the cores this process may use, at least 1: the event loops `showcase --web` and
    /// `todo-web` run by default. Their sessions take their turns on every core (Swift's global
    /// pool) whatever the loops; on a 2-core machine one loop answered 15,000 typing tabs with
    /// a lower p99 and less CPU per edit than two, and as cheaply at 1,000 (Benchmarks/README.md).
    public static var halfTheCores: Int { max(1, System.coreCount / 2) }
    /// The group of ``eventLoops`` threads, when it is the server's own.
    let ownGroup: OwnGroup?
    let table: ConnectionTable
    private let running = Locked(Running())

    /// Whether the server listens, and who waits for it to finish.
    private struct Running {
        var listener: (any Channel)?
        var port: UInt16?
        var failure: (any Error)?
        var stopped = false
        /// ``run()`` has closed every connection and returned (or is about to).
        var finished = false
        /// ``stop()`` calls waiting for that.
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// ``waitUntilListening()`` calls waiting for the port (or the failure).
        var listening: [CheckedContinuation<UInt16, any Error>] = []
    }

    /// A server for `sessions` on `host`:`port` (port 0: any free port; see
    /// ``waitUntilListening()``), within `limits`; `latency` delays everything sent both ways
    /// (the page, its files, the WebSocket's messages), and `jitter` up to that much more at
    /// random (all still in order), to try an app on a slow or jittery network. `/stats` answers only with `statsToken`, as
    /// `Authorization: Bearer <token>` or `?token=<token>` (without one it is a 404). Behind a
    /// reverse proxy, `deployment` names the public host names and the proxy. `head` is what the
    /// app adds to every page: a title suffix, its stylesheets (served by its own routes).
    ///
    /// `eventLoops` is how many threads read and write its sockets: `nil` (the default) serves
    /// them on SwiftNIO's shared group, one event loop per core; a number (at least 1) makes a
    /// group of the server's own (its threads end with the server). The sessions' turns do not
    /// run there (each session has an executor of its own on Swift's global pool), so fewer loops
    /// leave the cores to the sessions: on 2 cores with 15,000 tabs typing, one loop answered
    /// with a p99 of 2.2–2.6 ms against 2.5–13 ms on two, at 0.92–1.03× the echo's CPU per
    /// message against 1.14–1.17×, and as cheaply at 1,000 tabs (``halfTheCores`` is what the
    /// showcase and todo-web use; Benchmarks/README.md).
    public init(host: String = "127.0.0.1", port: UInt16, sessions: WebSessions, limits: Limits = Limits(), deployment: Deployment = Deployment(),
                head: PageShell.Head = PageShell.Head(), latency: Duration = .zero, jitter: Duration = .zero, statsToken: String? = nil,
                eventLoops: Int? = nil, log: @escaping @Sendable (String) -> Void) throws {
        self.eventLoops = eventLoops.map { max(1, $0) }
        ownGroup = self.eventLoops.map { OwnGroup(threads: $0) }
        self.sessions = sessions
        self.pageHead = head
        self.log = log
        self.limits = limits
        self.latency = latency
        self.jitter = jitter
        self.statsToken = statsToken.flatMap { $0.isEmpty ? nil : $0 }
        refusals = RefusalLog(log: log)
        self.deployment = deployment
        allowedHosts = Self.allowedHosts(listeningOn: host).map { $0.union(deployment.hostNames.map { Self.hostName($0) }) }
        self.host = host
        self.port = port
        // Below the process's file limit, with room for the listener, the event loops and logs.
        let files = Self.raiseFileLimit()
        table = ConnectionTable(limit: files > 128 ? min(limits.connections, files - 64) : limits.connections, perAddressLimit: limits.connectionsPerAddress,
                                unlimited: Set(deployment.trustedProxies))
    }

    /// Adds a route: an exact `path` (`"/health"`), or every path under a prefix
    /// (`"/images/*"`), for `method`. A `GET` route answers `HEAD` too. Routes are checked in the order they
    /// were added, before the app's pages; requests are checked as every route's are.
    public func route(_ path: String, method: String = "GET", handler: @escaping @Sendable (WebRequest) async -> WebResponse) {
        let prefix = path.hasSuffix("/*")
        let path = prefix ? String(path.dropLast()) : path
        routes.withLock { $0.append((method.uppercased(), path, prefix, handler)) }
    }

    /// Listens until cancelled (or ``stop()``), on SwiftNIO's event loops (one per core, or
    /// ``eventLoops``): each connection is served on one of them (see `ConnectionHandler`).
    /// Then stops gracefully, as ``stop()`` describes, and returns once every connection is closed.
    public func run() async throws {
        let listener: any Channel
        do {
            listener = try await bootstrap().bind(host: host, port: Int(port)).get()
        } catch {
            let listening = running.withLock { running in
                running.failure = error
                defer { running.listening = [] }
                return running.listening
            }
            for waiter in listening { waiter.resume(throwing: error) }
            throw error
        }
        let port = listener.localAddress?.port.map(UInt16.init) ?? 0
        let (stopped, listening) = running.withLock { running in
            running.listener = listener
            running.port = port
            defer { running.listening = [] }
            return (running.stopped, running.listening)
        }
        for waiter in listening { waiter.resume(returning: port) }
        if stopped { listener.close(promise: nil) }
        await withTaskCancellationHandler {
            try? await listener.closeFuture.get()
        } onCancel: {
            listener.close(promise: nil)
        }
        running.withLock { $0.port = nil }
        await drain()
        // The files its pages sent that no view model kept go with the server.
        sessions.discardUploads()
        let waiting = running.withLock { running in
            running.finished = true
            defer { running.waiting = [] }
            return running.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Listens, as ``run()``, until one of `signals` arrives (`SIGTERM` from systemd, Docker or
    /// Kubernetes; `SIGINT` from Ctrl-C), then stops gracefully (``stop()``) and returns. A second
    /// signal while it stops ends the process at once, by that signal. The signals' own actions
    /// are given back when it returns. It listens once the signals are watched: a signal sent
    /// after ``waitUntilListening()`` has returned is never missed.
    ///
    ///     try await server.run(stoppingOn: [SIGTERM, SIGINT])
    public func run(stoppingOn signals: [Int32]) async throws {
        let received = Locked(0)
        let watch = await ProcessSignalWatch.start(signals) { [self] number in
            let count = received.withLock { count in
                count += 1
                return count
            }
            guard count == 1 else {
                // To the process, not this thread: dispatch blocks the signal on its own
                // threads (its signal source reads it from a signalfd), so `raise` would leave
                // it pending here; another thread takes it, with its default action now.
                signal(number, SIG_DFL)
                kill(getpid(), number)
                return
            }
            log("stopping (signal \(number)): no new connections; \(table.count) open ones close as they finish (at most \(limits.shutdownGrace))")
            Task { await self.stop() }
        }
        defer { watch.end() }
        try await run()
    }

    private func bootstrap() -> ServerBootstrap {
        ServerBootstrap(group: ownGroup?.group ?? MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // A patch is a small write: without TCP_NODELAY, Nagle's algorithm holds one until
            // the page's delayed ACK of the one before (about 40 ms).
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            // Each connection keeps its read buffer between reads. A page's messages are small
            // (a keystroke is about 60 bytes, a request's head under 1 KB): start at 512 bytes
            // instead of NIO's 2,048 (1.5 KB less per open tab); a read that fills the buffer
            // makes the next one bigger, up to 64 KB, as before.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536))
            .childChannelInitializer { [self] channel in
                let peer = channel.remoteAddress?.ipAddress ?? "unknown"
                let refusal = table.admit(channel, from: peer)
                // Counted until it closes, whichever handler it has then (a request's, a
                // WebSocket's, a lingering one).
                if refusal == nil {
                    let table = self.table
                    channel.closeFuture.whenComplete { _ in table.remove(channel, from: peer) }
                }
                return channel.eventLoop.makeCompletedFuture {
                    if latency > .zero || jitter > .zero {
                        try channel.pipeline.syncOperations.addHandler(LatencyHandler(latency: latency, jitter: jitter))
                    }
                    try channel.pipeline.syncOperations.addHandler(ConnectionHandler(server: self, address: peer, refusal: refusal))
                }
            }
    }

    /// Waits until the server listens; its port then. Throws what stopped it from listening
    /// (an address in use, say).
    public func waitUntilListening() async throws -> UInt16 {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<UInt16, any Error>) in
            let now = running.withLock { running -> Result<UInt16, any Error>? in
                if let port = running.port { return .success(port) }
                if let failure = running.failure { return .failure(failure) }
                running.listening.append(waiter)
                return nil
            }
            if let now { waiter.resume(with: now) }
        }
    }

    /// Stops gracefully, as nginx does on `SIGQUIT` and Cowboy's drain: stops listening; a
    /// connection between requests closes at once; a request being read or answered gets its
    /// response, then the connection closes; a WebSocket closes with 1001 ("going away") once
    /// its session has answered the messages it read (its page reconnects, to this server
    /// started again or to another behind the same proxy, and sends again whatever was not
    /// answered). What is still open after ``Limits/shutdownGrace`` is closed. Returns when
    /// ``run()`` has closed every connection.
    public func stop() async {
        let (listener, finished) = running.withLock { running in
            running.stopped = true
            return (running.listener, running.finished)
        }
        guard let listener, !finished else { return }
        try? await listener.close()
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = running.withLock { running in
                if running.finished { return true }
                running.waiting.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// Asks every open connection to finish (`ChannelShouldQuiesceEvent`, as NIO's
    /// `ServerQuiescingHelper` does), waits for them up to the grace, and closes the rest.
    private func drain() async {
        let open = table.all
        guard !open.isEmpty else { return }
        for channel in open { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        let grace = limits.shutdownGrace
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for channel in open { try? await channel.closeFuture.get() } }
            group.addTask { try? await Task.sleep(for: grace) }
            await group.next()
            group.cancelAll()
            let rest = table.all
            if !rest.isEmpty { log("stopping: closed \(rest.count) connections still open after \(grace)") }
            for channel in rest { channel.close(promise: nil) }
        }
    }

    /// The connections open now.
    var connectionCount: Int { table.count }

    /// The connections' handlers still in memory: each is freed once its channel closed and its
    /// pipeline let go of it (a test's check that a closed connection keeps nothing).
    let handlersInMemory = Atomic<Int>(0)

    /// Raises the process's soft limit on open files to its hard limit (as Go's runtime does,
    /// and nginx's `worker_rlimit_nofile`): each connection is a file. Returns the limit then.
    static func raiseFileLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return Int(sysconf(Int32(_SC_OPEN_MAX))) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}

/// A group of event loops a server made for itself: its threads end with the server (a session
/// may still hand a late frame to its connection's loop after ``WebAppServer/run()`` returns).
final class OwnGroup: Sendable {
    let group: MultiThreadedEventLoopGroup

    init(threads: Int) { group = MultiThreadedEventLoopGroup(numberOfThreads: threads) }

    deinit { group.shutdownGracefully { _ in } }
}
#else
/// WebUI's server needs this package's `WebServer` trait:
/// `.package(url: ..., from: ..., traits: ["WebServer"])` in your Package.swift (in this
/// repository, `swift build --traits WebServer`).
@available(*, unavailable, message: "WebAppServer needs MVVMKit's WebServer trait: .package(url: ..., from: ..., traits: [\"WebServer\"])")
public final class WebAppServer {}
#endif
