// T-BEYOND4 (the browser view layer: its server; input from the page is untrusted): a page that
// sends faster than its session answers is read at the session's pace. Past
// `Limits.messagesWaiting` messages waiting, the server stops reading its socket, so TCP
// holds the rest in the page's own buffers instead of the server's memory; reading resumes as the
// session catches up, and nothing the page sent is lost. Mutants FL1 and FL2 break each half.
#if WebServer
import Foundation
import NIOCore
import Signals
import Testing
@testable import WebServer
@testable import WebUI

extension BusySessions {
    @Suite(.serialized) struct FloodTests {
        /// The most a loopback socket's kernel buffers can hold, each way (Linux autotunes them up to
        /// `tcp_rmem`'s and `tcp_wmem`'s last value: 32 MB and 4 MB on this machine).
        static func kernelBuffers() -> Int {
            func maximum(_ file: String, otherwise: Int) -> Int {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                      let last = text.split(whereSeparator: \.isWhitespace).last, let value = Int(last) else { return otherwise }
                return value
            }
            return maximum("/proc/sys/net/ipv4/tcp_rmem", otherwise: 6 << 20) + maximum("/proc/sys/net/ipv4/tcp_wmem", otherwise: 4 << 20)
        }

        /// The page sends 8 KB messages as fast as its socket takes them, then a keystroke, while its
        /// session is busy (a press holds it until the test lets go). The server takes no more than
        /// its inbox (`Limits.messagesWaiting` messages), what a read brings in past it, and what the kernel
        /// buffers hold: the page's socket stops taking its writes well before the flood (twice
        /// that) is sent. Let go, every message reaches the session, in order: the keystroke is
        /// acknowledged, and the refusals of the others are all counted in the log.
        @Test func aPageFloodingABusySessionIsReadAtTheSessionsPace() async throws {
            let log = Lines()
            let window = Locked<(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)?>(nil)
            let released = Locked(false)
            let sessions = WebSessions(limits: .init(sessions: 4, reconnectGrace: .seconds(120)), log: log.append) {
                BusyTab($0, busyFor: .zero, window: window, released: released, cap: .seconds(120))
            }
            let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
            let (port, task) = try await WebServerAttackTests().start(server)
            var tab = try await SessionExecutorTests.Tab.open(port)
            _ = try await tab.keystroke()
            _ = try await tab.pressUntilBusy(window)
            #expect(window.withLock { $0 != nil }, "the press never reached the session")

            // The flood: binary messages (chunks of no upload: the session refuses each, in a
            // moment: the test is of the server's reading, not of the session's work), then one
            // keystroke.
            let size = 8 * 1024
            let bound = (server.limits.messagesWaiting + 64) * size + Self.kernelBuffers() + 4 << 20
            let count = 2 * bound / size
            let channel = tab.socket.channel
            let written = Locked(0)
            // Masked with a key of zeros (as valid as any: the payload reads as it is).
            let frame = [0x80 | 0x2, 0x80 | 126, UInt8(size >> 8), UInt8(size & 0xFF), 0, 0, 0, 0] + [UInt8](repeating: 0xAB, count: size)
            for _ in 0..<count {
                channel.write(channel.allocator.buffer(bytes: frame)).whenSuccess { written.withLock { $0 += 1 } }
            }
            tab.number += 1
            let last = tab.number
            channel.write(channel.allocator.buffer(bytes: clientFrame(FrameHeader.text, Array(#"{"t":"i","id":"\#(tab.field)","v":"after the flood","n":\#(last)}"#.utf8))), promise: nil)
            channel.flush()
            // Until the page's socket stops taking writes (none for 3 s), or all were taken.
            var taken = 0, since = ContinuousClock.now
            while ContinuousClock.now - since < .seconds(3), taken < count {
                try await Task.sleep(for: .milliseconds(100))
                let now = written.withLock { $0 }
                if now != taken { (taken, since) = (now, ContinuousClock.now) }
            }
            #expect(taken * size <= bound, "the server took \((taken * size) >> 20) MB of the page's \((count * size) >> 20) MB while its session was busy (at most \(bound >> 20) MB: its inbox and the kernel's buffers)")
            #expect(taken < count)
            #expect(window.withLock { $0?.end == nil }, "the session's busy turn ended (after 120 s) before the page's socket stopped taking writes")

            // Let go: every message is read, in order, and reaches the session.
            released.withLock { $0 = true }
            let acknowledged = Task { [tab] in
                var tab = tab
                try await tab.acknowledged(last)
            }
            let timer = Task {
                try await Task.sleep(for: .seconds(120))
                acknowledged.cancel()
            }
            let caughtUp: Void? = try? await acknowledged.value
            timer.cancel()
            #expect(caughtUp != nil, "the keystroke after the flood was not acknowledged within 120 s: reading did not resume, or it was lost")
            #expect(written.withLock { $0 } == count)
            // Every binary message was refused: the log's lines and the refusals they say they left
            // out count them all (a last one, a second later, says what the flood's last second left out).
            try await Task.sleep(for: .milliseconds(1100))
            try await tab.socket.send([0x80 | 0x2, 0x80 | 3, 0, 0, 0, 0, 1, 2, 3])
            let asked = ContinuousClock.now
            while !log.all.contains(where: { $0.contains("of 3 bytes") }), ContinuousClock.now - asked < .seconds(60) { try await Task.sleep(for: .milliseconds(20)) }
            let refusals = log.all.filter { $0.contains("file chunk") }
            let accounted = refusals.count + refusals.map(RefusalLog.leftOut).reduce(0, +)
            #expect(accounted == count + 1, "\(refusals.count) lines account for \(accounted) refusals of \(count + 1) binary messages")
            await server.stop()
            try await task.value
        }
    }
}
#endif
