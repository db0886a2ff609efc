// Issue 58: a connection's deadline as a value (events and the time in, what is due out), tested
// with no timer and no socket: each time limit at its exact boundary, and generated WebSocket
// silences (pinged once, after a third; closed at the end unless the page was heard).
#if WebServer
import NIOCore
import Testing
@testable import WebServer

@Suite struct ConnectionDeadlineTests {
    var limits: WebAppServer.Limits {
        var limits = WebAppServer.Limits(requestTimeout: .seconds(10), keepAliveTimeout: .seconds(75), webSocketIdleTimeout: .seconds(60))
        limits.lingeringTime = .seconds(2)
        return limits
    }

    func time(_ nanoseconds: Int64) -> NIODeadline { .uptimeNanoseconds(UInt64(nanoseconds)) }
    func seconds(_ value: Int64) -> Int64 { value * 1_000_000_000 }

    /// Each limit expires at its exact length from when it started, not a nanosecond before:
    /// a request's, a kept connection's, and a WebSocket's silence.
    @Test func eachTimeExpiresAtItsExactBoundary() {
        let start = seconds(1000)
        let cases: [(String, Int64, (inout ConnectionDeadline) -> Void)] = [
            ("a request", seconds(10), { $0.request(now: time(start)) }),
            ("a kept connection", seconds(75), { $0.keptAlive(now: time(start)) }),
            ("a WebSocket's silence", seconds(60), { $0.heard(now: time(start)) }),
        ]
        for (name, length, begin) in cases {
            for offset: Int64 in [-1, 0] {
                var deadline = ConnectionDeadline(limits: limits, now: time(0))
                begin(&deadline)
                if name == "a WebSocket's silence" { #expect(deadline.due(now: time(start + length / 3)) == .ping) }
                let due = deadline.due(now: time(start + length + offset))
                #expect(due == (offset < 0 ? .wait : .expired), "\(name): \(due) at \(offset) ns from its end")
            }
        }
        var first = ConnectionDeadline(limits: limits, now: time(start))
        #expect(first.due(now: time(start + seconds(10) - 1)) == .wait && first.due(now: time(start + seconds(10))) == .expired,
                "a new connection's first request has the request's time")
        var answering = ConnectionDeadline(limits: limits, now: time(start))
        answering.answering()
        #expect(answering.due(now: time(start + seconds(100_000))) == .wait, "a route answering has no deadline")
    }

    /// T-BEYOND4: a WebSocket's page heard at random times: in every silence the page is pinged
    /// once, when a third of it has passed (the timer's next look is then), and the time expires
    /// only when a whole silence passed with nothing heard.
    @Test func generatedSilencesPingOnceAndExpireOnlyWhenNothingIsHeard() {
        var random = SystemRandomNumberGenerator()
        let silence = seconds(60)
        for round in 0..<300 {
            var deadline = ConnectionDeadline(limits: limits, now: time(0))
            var heard = seconds(5)
            deadline.heard(now: time(heard))
            var now = heard
            var pings = 0
            var expired = false
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                let next = deadline.nextCheck
                #expect(next == time(heard + (pings == 0 ? silence / 3 : silence)), "round \(round): the next look")
                // Either the page is heard before the next look, or the timer looks then.
                if Bool.random(using: &random) {
                    now += Int64.random(in: 0..<max(1, Int64(next.uptimeNanoseconds) - now), using: &random)
                    deadline.heard(now: time(now))
                    heard = now
                    pings = 0
                } else {
                    now = Int64(next.uptimeNanoseconds)
                    switch deadline.due(now: time(now)) {
                    case .ping:
                        #expect(pings == 0 && now - heard == silence / 3, "round \(round): a ping at \(now - heard) ns of the silence, \(pings) before")
                        pings += 1
                    case .expired:
                        #expect(now - heard == silence && pings == 1, "round \(round): expired after \(now - heard) ns, \(pings) pings")
                        expired = true
                    case .wait:
                        Issue.record("round \(round): the timer looked when due and nothing was due")
                    }
                    if expired { break }
                }
            }
        }
    }
}
#endif
