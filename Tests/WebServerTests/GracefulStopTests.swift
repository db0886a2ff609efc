// A server that is stopped (SIGTERM from systemd, Docker or Kubernetes; Ctrl-C) stops gracefully,
// as nginx's and Cowboy's do: it stops listening, lets what is under way finish, and closes each
// WebSocket with 1001 ("going away"), so that a page reconnects (to the server started again, or to
// another behind the same proxy) with nothing it sent lost. Mutants GS1-GS9 break each rule.
// T-BEYOND4 (the browser view layer: its server).
#if WebServer
import Foundation
import Signals
import Testing
@testable import WebServer
@testable import WebUI

extension BusySessions {
    @Suite(.serialized) struct GracefulStopTests {
        let attack = WebServerAttackTests()

        /// A running server that stops with `grace`, whose `path` answers after `delay`; one request
        /// for it is under way (sent, and its connection counted) when this returns.
        func serverAnswering(_ path: String, after delay: Duration, grace: Duration, log: Lines)
            async throws -> (server: WebAppServer, port: UInt16, run: Task<Void, any Error>, request: RawClient) {
            var limits = WebAppServer.Limits()
            limits.shutdownGrace = grace
            let server = try await attack.server(limits, log: log)
            server.route(path) { _ in
                try? await Task.sleep(for: delay)
                return .text("done")
            }
            let (port, task) = try await attack.start(server)
            let request = try await RawClient.connect(port)
            try await request.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            while server.connectionCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
            return (server, port, task, request)
        }

        /// A stop while a session is busy with the page's last message: the socket closes with 1001
        /// only after the session's answer to it (its acknowledgement) was written; `stop()` returns
        /// once it closed, `run()` returns, and the server no longer listens.
        @Test func aWebSocketClosesWith1001AfterItsSessionAnsweredWhatItRead() async throws {
            let log = Lines()
            let window = Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>(nil)
            let sessions = WebSessions(limits: .init(sessions: 4, reconnectGrace: .seconds(60)), log: log.append) {
                BusyTab($0, busyFor: .milliseconds(700), window: window)
            }
            let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
            let (port, task) = try await attack.start(server)
            var tab = try await SessionExecutorTests.Tab.open(port)
            _ = try await tab.keystroke()
            // The press is with the session (its busy turn began) when the server is told to stop.
            let press = try await tab.pressUntilBusy(window)
            let stopping = Task { await server.stop() }
            let (bytes, closed) = await tab.socket.readUntilClosed(timeout: .seconds(30))
            let received = tab.received + bytes
            #expect(closed)
            #expect(attack.closeCode(received) == 1001, "\(received.suffix(8))")
            #expect(String(decoding: received, as: UTF8.self).contains(#""a":\#(press)"#), "the press was not answered before the close")
            #expect(window.withLock { $0?.end } != nil, "closed before the busy turn ended")
            await stopping.value
            try await task.value
            await #expect(throws: (any Error).self) { _ = try await RawClient.connect(port) }
        }

        /// A page that keeps sending faster than its session answers (each press keeps it busy 60
        /// ms; the page presses every 10 ms) does not hold the close until the grace: what the server
        /// read before the stop is answered, what the page sends after is not read (it sends it
        /// again to the server it reconnects to), and the socket closes with 1001 long before the
        /// grace (40 s). Read on, the session would never catch up. The session is held on its first
        /// press until the server is stopping, so what was read before the stop is ten presses
        /// however slow the machine: the close comes 0.6 s after it lets go.
        @Test func aPageThatKeepsSendingDoesNotHoldTheCloseToTheGrace() async throws {
            let log = Lines()
            let window = Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>(nil)
            let released = Locked(false)
            let sessions = WebSessions(limits: .init(sessions: 4, reconnectGrace: .seconds(60)), log: log.append) {
                BusyTab($0, busyFor: .milliseconds(60), window: window, released: released)
            }
            var limits = WebAppServer.Limits()
            limits.shutdownGrace = .seconds(40)
            let server = try WebAppServer(port: 0, sessions: sessions, limits: limits, log: log.append)
            let (port, task) = try await attack.start(server)
            var tab = try await SessionExecutorTests.Tab.open(port)
            _ = try await tab.keystroke()
            let button = tab.button
            // The session is held on the first press, and ten more wait for it, when the server is
            // told to stop.
            let first = try await tab.pressUntilBusy(window)
            let started = ContinuousClock.now
            for _ in 1...10 { _ = try await tab.send { #"{"t":"c","id":"\#(button)","n":\#($0)}"# } }
            let stopping = Task { await server.stop() }
            while (try? await RawClient.connect(port))?.close() != nil, ContinuousClock.now - started < .seconds(60) {
                try await Task.sleep(for: .milliseconds(5))
            }
            // The page goes on pressing every 10 ms; the session is let go.
            let (socket, next) = (tab.socket, tab.number + 1)
            let closed = Locked(false)
            let pressing = Task {
                var number = next
                while !closed.withLock({ $0 }), number < next + 6000 {
                    try? await socket.send(clientFrame(FrameHeader.text, Array(#"{"t":"c","id":"\#(button)","n":\#(number)}"#.utf8)))
                    number += 1
                    try? await Task.sleep(for: .milliseconds(10))
                }
                return number - 1
            }
            try await Task.sleep(for: .milliseconds(100))
            let clock = ContinuousClock()
            let letGo = clock.now
            released.withLock { $0 = true }
            let (bytes, wasClosed) = await socket.readUntilClosed(timeout: .seconds(90))
            let took = clock.now - letGo
            closed.withLock { $0 = true }
            let sent = await pressing.value
            let received = tab.received + bytes
            #expect(wasClosed)
            #expect(attack.closeCode(received) == 1001, "\(received.suffix(8))")
            #expect(took < .seconds(20), "the close took \(took) after the session was let go: the page's presses held it (the grace is 40 s)")
            #expect(!log.all.contains { $0.contains("still open after") }, "\(log.all.suffix(3))")
            // The last press answered was read before the close, and some sent after were not.
            let answered = String(decoding: received, as: UTF8.self).matches(of: /"a":([0-9]+)/).compactMap { Int($0.1) }.max() ?? 0
            #expect(answered >= first && answered < sent, "answered up to \(answered) of \(first)...\(sent)")
            await stopping.value
            try await task.value
        }

        /// A request being answered gets its whole response, then its connection closes (although
        /// the client asked to keep it); a connection idle between requests closes at once (not at
        /// its keep-alive timeout); `stop()` returns when both have closed, long before the grace.
        @Test func aRequestBeingAnsweredIsAnsweredAndAnIdleConnectionClosesAtOnce() async throws {
            let log = Lines()
            let (server, port, task, slow) = try await serverAnswering("/slow", after: .milliseconds(1200), grace: .seconds(30), log: log)
            let idle = try await RawClient.connect(port)
            try await idle.send("GET /mvvm.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var buffer: [UInt8] = []
            #expect(try await idle.readResponse(buffer: &buffer).status == 200)
            while server.connectionCount < 2 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(100))
            let clock = ContinuousClock()
            let started = clock.now
            let stopping = Task { await server.stop() }
            let idleClosed = await idle.readUntilClosed(timeout: .seconds(20))
            let idleTook = clock.now - started
            let (answer, slowClosed) = await slow.readUntilClosed(timeout: .seconds(20))
            let text = String(decoding: answer, as: UTF8.self)
            #expect(idleClosed.closed && idleClosed.bytes.isEmpty)
            // At once, not at its keep-alive timeout (20 s) or the grace (30 s); the bound leaves room
            // for a crowded run, where the task that calls stop() can wait seconds for a thread.
            #expect(idleTook < .seconds(10), "the idle connection closed after \(idleTook), not at once")
            #expect(slowClosed)
            #expect(text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("\r\n\r\ndone"), "\(text.prefix(200))")
            await stopping.value
            #expect(clock.now - started < .seconds(20), "stop() took \(clock.now - started); the grace is 30 s")
            try await task.value
        }

        /// What has not finished within `shutdownGrace` is closed then, and what finishes within it
        /// is not: with a grace of 3 s, a route answering 400 ms after it was asked (the stop comes
        /// in between) gets its whole response, one that never answers is cut at the grace; `stop()`
        /// does not wait for it, and says what it closed.
        @Test func whatIsStillOpenAfterTheGraceIsClosed() async throws {
            let log = Lines()
            let (server, port, task, stuck) = try await serverAnswering("/never", after: .seconds(60), grace: .seconds(3), log: log)
            let asked = Locked(false)
            server.route("/soon") { _ in
                asked.withLock { $0 = true }
                try? await Task.sleep(for: .milliseconds(400))
                return .text("soon")
            }
            let soon = try await RawClient.connect(port)
            try await soon.send("GET /soon HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let waiting = ContinuousClock.now
            while !asked.withLock({ $0 }), ContinuousClock.now - waiting < .seconds(60) { try await Task.sleep(for: .milliseconds(5)) }
            let clock = ContinuousClock()
            let started = clock.now
            let stopping = Task { await server.stop() }
            let (answer, closed) = await stuck.readUntilClosed(timeout: .seconds(20))
            let took = clock.now - started
            let (soonAnswer, soonClosed) = await soon.readUntilClosed(timeout: .seconds(20))
            let text = String(decoding: soonAnswer, as: UTF8.self)
            #expect(closed && answer.isEmpty)
            #expect(took >= .milliseconds(2950) && took < .seconds(20), "closed after \(took); the grace is 3 s (the route answers after 60 s)")
            #expect(soonClosed && text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("\r\n\r\nsoon"), "a response due within the grace was cut: \(text.prefix(200))")
            await stopping.value
            try await task.value
            #expect(log.all.contains { $0.contains("closed 1 connections still open after") }, "\(log.all)")
        }

        /// `run(stoppingOn:)`: the signal stops the server gracefully (its socket closed with 1001)
        /// and `run` returns; the signal's default action is given back. Twice in one process (a
        /// server stopped and started again): libdispatch installs its signal handler only the
        /// first time a signal is watched, and a signal sent the second time was lost. The signal
        /// is sent as soon as the server listens: it is watched by then.
        @Test func aSignalStopsTheServerGracefully() async throws {
            for round in 1...2 {
                let log = Lines()
                let server = try await attack.server(log: log)
                let task = Task { try await server.run(stoppingOn: [SIGUSR2]) }
                let port = try await server.waitUntilListening()
                let socket = try await attack.webSocket(port)
                kill(getpid(), SIGUSR2)
                let (bytes, closed) = await socket.readUntilClosed(timeout: .seconds(20))
                #expect(closed && attack.closeCode(bytes) == 1001, "round \(round): \(bytes.suffix(8))")
                if !closed { task.cancel() }
                try await task.value
                #expect(log.all.contains { $0.hasPrefix("stopping (signal \(SIGUSR2))") }, "round \(round): \(log.all)")
            }
            var action = sigaction()
            sigaction(SIGUSR2, nil, &action)
            #if os(Linux)
            let handler = action.__sigaction_handler.sa_handler
            #else
            let handler = action.__sigaction_u.__sa_handler
            #endif
            #expect(unsafeBitCast(handler, to: Int.self) == 0, "SIGUSR2 is not given back its default action")
        }
    }
}
#endif
