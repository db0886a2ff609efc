// Issue 58, T-BEYOND4 (the browser view layer's server; a page is untrusted, also in what it
// does not read): the outgoing limit in bytes, as a value (frames and the channel's writability
// in, a verdict out), tested with no socket: generated runs against a model, and the limit at its
// exact boundary from both sides. The server's side (a page that stops reading is closed) is in
// ServerLimitTests.
#if WebServer
import Testing
@testable import WebServer

@Suite struct OutgoingBacklogTests {
    /// Frames written while the channel takes more never count; those written while it does
    /// not add up until it drains; a frame that would put the backlog past the limit is
    /// refused, and one that brings it exactly to the limit is not.
    @Test func generatedRunsRefuseExactlyWhatWouldPassTheLimit() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<2_000 {
            let limit = Int.random(in: 0...4_096, using: &random)
            var backlog = OutgoingBacklog(limit: limit)
            var waiting = 0
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    backlog.drained()
                    waiting = 0
                    continue
                }
                let count = Int.random(in: 0...1_024, using: &random)
                let writable = Bool.random(using: &random)
                let accepted = backlog.write(count, writable: writable)
                let expected = writable || waiting + count <= limit
                #expect(accepted == expected, "round \(round): \(count) bytes, writable \(writable), \(waiting) of \(limit) waiting")
                if accepted && !writable { waiting += count }
                #expect(backlog.bytes == waiting)
            }
        }
    }

    @Test func theLimitHoldsAtItsBoundary() {
        var atTheLimit = OutgoingBacklog(limit: 1_000)
        var accepted = atTheLimit.write(600, writable: false)
        #expect(accepted)
        accepted = atTheLimit.write(400, writable: false)
        #expect(accepted, "exactly the limit waiting: still written")
        accepted = atTheLimit.write(1, writable: false)
        #expect(!accepted, "one byte past it: the page is closed")
        accepted = atTheLimit.write(5_000, writable: true)
        #expect(accepted, "a channel that takes more is never past it")
        atTheLimit.drained()
        accepted = atTheLimit.write(1_000, writable: false)
        #expect(accepted, "drained: the whole limit again")
        var oneOver = OutgoingBacklog(limit: 1_000)
        accepted = oneOver.write(1_001, writable: false)
        #expect(!accepted)
    }
}
#endif
