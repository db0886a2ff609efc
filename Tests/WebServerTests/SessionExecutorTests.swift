// Issue 41, T-BEYOND4 (the browser view layer): sessions on every core. Each session of the
// server takes its turns on an executor of its own, so a session whose view model is busy does
// not hold up another's keystrokes; an app whose sessions are on the main actor keeps them all
// there.
#if WebServer
import Dispatch
import Foundation
import MVVM
import Signals
import Testing
@testable import WebServer
@testable import WebUI

/// A tab's content: a field, and a button whose press keeps the session busy for a while.
final class BusyTab: WebSessionContent {
    let field = TextField()
    let text = MutableProperty("")
    let busy = Button("Busy")

    /// When the last busy turn started and ended.
    let window: Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>

    /// `busyTime` is the least a press keeps the session busy; with `released`, it stays busy
    /// after that until `released` holds `true` (at most `cap`).
    init(_ document: Document, busyFor busyTime: Duration, window: Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?> = Locked(nil),
         released: Locked<Bool>? = nil, cap: Duration = .seconds(30)) {
        self.window = window
        document.root.setChildren([field, busy])
        field.bind(to: text)
        busy.onPress = {
            // Busy as a view model doing work on its turn: the thread is held, not yielded.
            let start = ContinuousClock.now
            window.withLock { $0 = (start, nil) }
            while ContinuousClock.now < start + busyTime
                || (released.map { !$0.withLock { $0 } } ?? false) && ContinuousClock.now < start + cap {}
            window.withLock { $0 = (start, ContinuousClock.now) }
        }
    }

    func close() {}
}

/// A page of an app's `@MainActor` screen: built only on the main actor (by `mainActorRoutes`).
@MainActor final class MainActorTab: @MainActor WebSessionContent {
    let model = MainActorModel()
    init(_ document: Document, _ location: WebLocation) {
        document.root.setChildren([Label("made on the main actor for \(location.path)")])
        model.opened += 1
    }
    func close() {}
}

@MainActor final class MainActorModel { var opened = 0 }

/// A task executor that is one thread of its own: the busy test's client runs there, so that
/// the suites running beside it (whose tasks share the system's threads with the sessions'
/// executors) do not hold up the client's keystrokes and make the sessions look slow.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // SAFETY: `jobs` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    static let shared = OwnThreadExecutor()

    private init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "SessionExecutorTests client"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}

extension BusySessions {
    @Suite(.serialized) struct SessionExecutorTests {
        /// One tab of a real server: its WebSocket, its field and button, its message numbers.
        struct Tab {
            let socket: RawClient
            let field: String
            let button: String
            var number = 0
            var received: [UInt8] = []

            static func open(_ port: UInt16) async throws -> Tab {
                let http = try await RawClient.connect(port)
                try await http.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let page = String(decoding: await http.readUntilClosed(timeout: .seconds(60)).bytes, as: UTF8.self)
                let session = try #require(page.firstMatch(of: /data-session="([0-9a-f]+)"/)).1
                let cookie = try #require(page.firstMatch(of: /Set-Cookie: (mvvm_browser=[0-9a-f]+)/)).1
                let field = try #require(page.firstMatch(of: /<input[^>]*id="(e[0-9]+)"/)).1
                let button = try #require(page.firstMatch(of: /<button id="(e[0-9]+)"/)).1
                let socket = try await RawClient.connect(port)
                try await socket.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nCookie: \(cookie)\r\n\r\n")
                try await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"hello","s":"\#(session)","q":0}"#.utf8)))
                return Tab(socket: socket, field: String(field), button: String(button))
            }

            /// Sends `message` (numbered next) without waiting; its number.
            mutating func send(_ message: (Int) -> String) async throws -> Int {
                number += 1
                try await socket.send(clientFrame(FrameHeader.text, Array(message(number).utf8)))
                return number
            }

            /// Waits until a frame acknowledges message `number`.
            mutating func acknowledged(_ number: Int) async throws {
                while !String(decoding: received, as: UTF8.self).contains(#""a":\#(number)"#) {
                    received += try await socket.read(atMost: 65536)
                }
            }

            /// Types one more character; when it was sent and when it was acknowledged.
            /// Presses the button (numbered next) and waits, 60 s at most, until the session's busy
            /// turn began (`window`, a ``BusyTab``'s); the press's number.
            mutating func pressUntilBusy(_ window: Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>) async throws -> Int {
                let button = self.button
                let number = try await send { #"{"t":"c","id":"\#(button)","n":\#($0)}"# }
                let started = ContinuousClock.now
                while window.withLock({ $0 == nil }), ContinuousClock.now - started < .seconds(60) { try await Task.sleep(for: .milliseconds(5)) }
                return number
            }

            mutating func keystroke() async throws -> (sent: ContinuousClock.Instant, answered: ContinuousClock.Instant) {
                let started = ContinuousClock.now
                let field = self.field
                let sent = try await send { #"{"t":"i","id":"\#(field)","v":"\#(String(repeating: "a", count: $0 % 20))","n":\#($0)}"# }
                try await acknowledged(sent)
                return (started, ContinuousClock.now)
            }
        }

        /// One session's view model busy for 2 s: the other sessions' keystrokes are answered while
        /// it is busy (their latency then printed), and the busy one answers once its work is done.
        /// On one executor for all, none would be answered until the busy turn ended.
        ///
        /// The busy turn lasts 2 s, and longer until four of the other sessions' keystrokes were
        /// answered during it (at most 30 s): the suites running beside this one can hold the
        /// system's other threads for seconds (on 2 cores, the one the busy turn leaves), which
        /// delays the others' answers but must not fail the test; on one executor for all, no
        /// answer comes while the turn lasts, however long.
        @Test func oneBusySessionDoesNotHoldUpTheOthers() async throws {
            let log = Lines()
            let window = Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>(nil)
            let released = Locked(false)
            let sessions = WebSessions(limits: .init(sessions: 20, reconnectGrace: .seconds(60)), log: log.append) {
                BusyTab($0, busyFor: .seconds(2), window: window, released: released)
            }
            #expect(!sessions.runsOnMainActor)
            let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
            let task = Task { try await server.run() }
            defer { task.cancel() }
            let port = try await server.waitUntilListening()
            try await withTaskExecutorPreference(OwnThreadExecutor.shared) {
                try await typeWhileOneSessionIsBusy(port: port, window: window, released: released)
            }
            await server.stop()
        }

        func typeWhileOneSessionIsBusy(port: UInt16, window: Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>,
                                       released: Locked<Bool>) async throws {
            var tabs: [Tab] = []
            for _ in 0..<5 { tabs.append(try await Tab.open(port)) }
            for index in tabs.indices { _ = try await tabs[index].keystroke() }
            let button = tabs[0].button
            let started = ContinuousClock.now
            let press = try await tabs[0].send { #"{"t":"c","id":"\#(button)","n":\#($0)}"# }
            // Typing in the other tabs until the busy turn is over (or 40 s: its turn may wait for a
            // thread that long). Four answered since it began release it.
            var keystrokes: [(sent: ContinuousClock.Instant, answered: ContinuousClock.Instant)] = []
            while window.withLock({ $0?.end == nil }), ContinuousClock.now - started < .seconds(40) {
                for index in 1..<tabs.count { keystrokes.append(try await tabs[index].keystroke()) }
                if let start = window.withLock({ $0?.start }), keystrokes.count(where: { $0.sent >= start }) >= 4 {
                    released.withLock { $0 = true }
                }
            }
            try await tabs[0].acknowledged(press)
            let busy = try #require(window.withLock { $0 })
            let end = try #require(busy.end)
            let during = keystrokes.filter { $0.sent >= busy.start && $0.answered < end }
            let latencies = during.map { $0.answered - $0.sent }.sorted()
            if let last = latencies.last {
                print("SessionExecutorTests: \(latencies.count) keystrokes of 4 sessions answered while a fifth was busy for \(end - busy.start): "
                      + "p50 \(latencies[latencies.count / 2]), p99 \(latencies[min(latencies.count - 1, latencies.count * 99 / 100)]), max \(last)")
            }
            #expect(end - busy.start >= .seconds(2))
            #expect(during.count >= 4, "keystrokes of other sessions waited for the busy one: \(during.count) answered while it was busy")
        }

        /// An app whose sessions are on the main actor (`onMainActor:`) has them opened there, and
        /// the page built there; the others each get a new executor.
        @Test func sessionsOnTheMainActorStayThere() async throws {
            let onMain = WebSessions(onMainActor: { document, _ in BusyTab(document, busyFor: .zero) })
            #expect(onMain.runsOnMainActor)
            #expect(onMain.executorForNewSession() === WebExecutor.main)
            let own = WebSessions { BusyTab($0, busyFor: .zero) }
            let first = own.executorForNewSession(), second = own.executorForNewSession()
            #expect(first !== second && first !== WebExecutor.main)
            let session = await first.perform { () -> WebSession? in own.open() }
            let opened = try #require(session)
            #expect(opened.executor === first)
            #expect(await first.perform { WebExecutor.current === first && opened.document.executor === first })
            await first.perform { opened.close() }
        }

        /// An app with a few `@MainActor` screens (`onMainActorAt:mainActorRoutes:routes:`): a page at an address it names
        /// gets a session on the main actor, any other page one on an executor of its own, whether
        /// the page is asked for or resumed after its session ended (its hello says the address).
        @Test func sessionsAtTheAddressesNamedAreOnTheMainActor() async throws {
            let sessions = WebSessions(limits: .init(sessions: 20, reconnectGrace: .seconds(60)), log: { _ in }, onMainActorAt: { $0.segments.first == "main" },
                                       mainActorRoutes: { document, _ in BusyTab(document, busyFor: .zero) },
                                       routes: { document, _ in BusyTab(document, busyFor: .zero) })
            #expect(!sessions.runsOnMainActor)
            #expect(sessions.runsOnMainActor(at: WebLocation(path: "/main/1")) && !sessions.runsOnMainActor(at: WebLocation(path: "/other")))
            #expect(sessions.executorForNewSession(at: WebLocation(path: "/main")) === WebExecutor.main)
            #expect(sessions.executorForNewSession(at: .root) !== WebExecutor.main)
            let server = try WebAppServer(port: 0, sessions: sessions, log: { _ in })
            let task = Task { try await server.run() }
            defer { task.cancel() }
            let port = try await server.waitUntilListening()
            for (path, onMain) in [("/", false), ("/main", true), ("/main/2?x=1", true), ("/mains", false), ("/other/main", false)] {
                let page = try await RawClient.get(path, port: port)
                let id = String(try #require(page.firstMatch(of: /data-session="([0-9a-f]+)"/)).1)
                let session = try #require(sessions.session(id))
                #expect(session.executor.isMain == onMain, "\(path)")
            }
            // A page whose session ended says its address in its hello: its new session is opened
            // on the executor that address asks for.
            for (address, onMain) in [("/main/3", true), ("/elsewhere", false)] {
                let socket = try await RawClient.connect(port)
                try await socket.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
                try await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"hello","s":"0123456789abcdef0123456789abcdef","q":3,"p":"\#(address)"}"#.utf8)))
                var received: [UInt8] = []
                while String(decoding: received, as: UTF8.self).firstMatch(of: /"sid":"([0-9a-f]+)"/) == nil {
                    let more = try await socket.read(atMost: 65536)
                    try #require(!more.isEmpty, "the socket closed before the page was resumed")
                    received += more
                }
                let id = String(try #require(String(decoding: received, as: UTF8.self).firstMatch(of: /"sid":"([0-9a-f]+)"/)).1)
                #expect(try #require(sessions.session(id)).executor.isMain == onMain, "\(address)")
            }
            await server.stop()
        }

        /// `onMainActorAt:mainActorRoutes:routes:`: a page at an address the app names gets its
        /// content from `mainActorRoutes`, on the main actor (a `@MainActor` page, which `routes`
        /// could not build: the compiler checks it); any other page from `routes`, on an executor of
        /// its own; `nil` from either is a 404.
        @Test func mainActorRoutesMakeTheContentOfTheAddressesNamed() async throws {
            let sessions = WebSessions(limits: .init(sessions: 20, reconnectGrace: .seconds(60)), log: { _ in }, onMainActorAt: { $0.segments.first == "main" },
                                       mainActorRoutes: { document, location in location.path == "/main/none" ? nil : MainActorTab(document, location) },
                                       routes: { document, location in location.path == "/none" ? nil : BusyTab(document, busyFor: .zero) })
            let server = try WebAppServer(port: 0, sessions: sessions, log: { _ in })
            let task = Task { try await server.run() }
            defer { task.cancel() }
            let port = try await server.waitUntilListening()
            for (path, onMain) in [("/", false), ("/main", true), ("/main/2?x=1", true), ("/mains", false), ("/other/main", false)] {
                let page = try await RawClient.get(path, port: port)
                let id = String(try #require(page.firstMatch(of: /data-session="([0-9a-f]+)"/), "\(path)").1)
                #expect(try #require(sessions.session(id)).executor.isMain == onMain, "\(path)")
                #expect(page.contains("made on the main actor for \(path.split(separator: "?")[0])") == onMain, "\(path)")
            }
            for path in ["/main/none", "/none"] {
                let answer = try await RawClient.get(path, port: port)
                #expect(answer.hasPrefix("HTTP/1.1 404"), "\(path): \(answer.prefix(40))")
            }
            await server.stop()
        }

        /// A hello naming a session that closes before its turn (its page said bye on another
        /// socket at that moment), from a page now at an address on the main actor: its turn runs on
        /// the closed session's executor, where a session for that address cannot be opened. It is
        /// refused (the page is told its session ended), not opened there; the server goes on.
        @Test func aHelloWhoseSessionClosedMeanwhileIsNotResumedOnTheWrongExecutor() async throws {
            let sessions = WebSessions(limits: .init(sessions: 20, reconnectGrace: .seconds(60)), log: { _ in }, onMainActorAt: { $0.segments.first == "main" },
                                       mainActorRoutes: { document, _ in BusyTab(document, busyFor: .zero) },
                                       routes: { document, _ in BusyTab(document, busyFor: .zero) })
            let executor = sessions.executorForNewSession(at: .root)
            let opened = await executor.perform { () -> WebSession? in
                guard case .opened(let session) = sessions.open(at: .root) else { return nil }
                return session
            }
            let session = try #require(opened)
            // The session's executor is held while the hello's turn is queued behind it; the
            // session closes first.
            let hold = DispatchSemaphore(value: 0)
            executor.run { hold.wait(); session.close() }
            let replies = Locked<[SocketMessage]>([])
            let socket = SessionSocket(sessions: sessions, log: { _ in }, send: { messages in replies.withLock { $0 += messages } })
            let answered = Locked(false)
            let hello = SocketMessage.text(#"{"t":"hello","s":"\#(session.id)","q":0,"p":"/main/1"}"#)
            socket.receive([hello]) { sent, _ in
                replies.withLock { $0 += sent }
                answered.withLock { $0 = true }
            }
            hold.signal()
            await executor.perform {}
            #expect(answered.withLock { $0 })
            #expect(session.isClosed)
            #expect(sessions.openCount == 0, "a session was opened for /main/1 off the main actor")
            #expect(replies.withLock { $0 }.contains { if case .text(let text) = $0 { text.contains(#""t":"x""#) } else { false } })
        }
    }
}
#endif
