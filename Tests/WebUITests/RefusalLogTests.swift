import Foundation
import Signals
import Testing
@testable import WebUI

/// T-BEYOND4 (input from the page is untrusted): a client refused in a loop gets the server to
/// write at most so many lines a second, and the lines say how many refusals they left out.
@Suite struct RefusalLogTests {
    /// A refusal log on a clock the test moves, and what it wrote.
    final class Harness: Sendable {
        private let second = Locked(0)
        private let lines = Locked<[String]>([])
        let refusals: RefusalLog

        init(linesPerSecond: Int) {
            let second = second, lines = lines
            refusals = RefusalLog(linesPerSecond: linesPerSecond, now: { second.withLock { $0 } }) { line in
                lines.withLock { $0.append(line) }
            }
        }

        func advance(by seconds: Int) { second.withLock { $0 += seconds } }
        var written: [String] { lines.withLock { $0 } }
    }

    /// Generated runs of refusals over seconds that pass at random (often none, sometimes a
    /// few): in every run, each second logs its first `linesPerSecond` refusals and no more,
    /// each line says exactly how many refusals came since the line before it, and nothing is
    /// lost — what was written plus what its lines say they left out is every refusal.
    @Test func eachSecondLogsItsShareAndTheNextLineCountsTheRest() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let perSecond = Int.random(in: 1...5, using: &generator)
            let harness = Harness(linesPerSecond: perSecond)
            var inThisSecond = 0, sinceLastLine = 0, refused = 0
            for step in 0..<Int.random(in: 1...60, using: &generator) {
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    harness.advance(by: Int.random(in: 1...3, using: &generator))
                    inThisSecond = 0
                }
                let before = harness.written.count
                harness.refusals("refused #\(step)")
                refused += 1
                inThisSecond += 1
                let written = harness.written
                if inThisSecond <= perSecond {
                    #expect(written.count == before + 1, "refusal \(inThisSecond) of a second that logs \(perSecond)")
                    let line = written.last ?? ""
                    #expect(line.hasPrefix("refused #\(step)"))
                    #expect(RefusalLog.leftOut(in: line) == sinceLastLine, "\(line): \(sinceLastLine) were left out before it")
                    sinceLastLine = 0
                } else {
                    #expect(written.count == before, "refusal \(inThisSecond) of a second that logs \(perSecond) is left out")
                    sinceLastLine += 1
                }
            }
            // A refusal in a later second says what the last one left out.
            harness.advance(by: 1)
            harness.refusals("last")
            refused += 1
            let written = harness.written
            #expect(written.count + written.map(RefusalLog.leftOut).reduce(0, +) == refused)
        }
    }

    /// The boundary from both sides: the share's last line is written, the next is not, and
    /// the next second's first line says one was left out.
    @Test func theShareIsExactlyLinesPerSecond() {
        let harness = Harness(linesPerSecond: 3)
        for index in 1...4 { harness.refusals("r\(index)") }
        #expect(harness.written == ["r1", "r2", "r3"])
        harness.advance(by: 1)
        harness.refusals("r5")
        #expect(harness.written.last == "r5 (1 more refused before it, not logged)")
        harness.refusals("r6")
        #expect(harness.written.last == "r6")
        // A share of 0 or less logs one line a second.
        let one = Harness(linesPerSecond: 0)
        one.refusals("a"); one.refusals("b")
        #expect(one.written == ["a"])
    }
}
