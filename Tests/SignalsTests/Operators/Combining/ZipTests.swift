import PropertyBased
import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/Zip.swift`: its cases of the shared contract
// (run by `OperatorContractTests`), its laws on random inputs and its own behaviour. The array
// forms of the combining operators with no input are checked together in OperatorContractTests.
// T-OP3: combining behaviour.

extension OperatorCase {
    /// `Zip.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let zipCases: [OperatorCase] = [
        OperatorCase(name: "zip", apply: { $0.zip(Signal(sequence: ["1", "2", "3"])).map { $0 + $1 } },
                     completing: ("-a-b-|", "-(a1)-(b2)-|"), failing: ("-a-#", "-(a1)-#")),
    ]
}

@Suite struct ZipTests: OperatorLawChecks {
    static let programs = OperatorLawInputs.programs

    @Test func zipWaitsForPartnersAndCompletesWhenOneSideIsExhausted() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let zipped = scheduler.cold("abc|").signal.zip(scheduler.cold("-1|").signal)
        #expect(scheduler.marbles(of: zipped) { $0 + $1 } == "-(a1)|")
    }

    /// zip against its reference: the n-th values paired; completes once an input has
    /// completed and every value it sent has been paired.
    @Test(.shrinking) func zipMatchesTheReference() async {
        await propertyCheck(count: 500, input: Self.programs) { program in
            let run = Self.drive(program) { $0.zip($1) }
            var queueA: [Int] = [], queueB: [Int] = []
            var expected: [[Int]] = []
            var nextA = 0, nextB = 100, doneA = false, doneB = false, finished = false
            func pair() {
                while !queueA.isEmpty && !queueB.isEmpty { expected.append([queueA.removeFirst(), queueB.removeFirst()]) }
                if (doneA && queueA.isEmpty) || (doneB && queueB.isEmpty) { finished = true }
            }
            for step in program where !finished {
                switch step {
                case .sendA: if !doneA { queueA.append(nextA) }; nextA += 1
                case .sendB: if !doneB { queueB.append(nextB) }; nextB += 1
                case .completeA: doneA = true
                case .completeB: doneB = true
                }
                pair()
            }
            #expect(run.values.map { [$0.0, $0.1] } == expected)
            #expect(run.completed == finished)
        }
    }
}
