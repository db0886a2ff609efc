import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/WithLatestFrom.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.
// T-OP3: combining behaviour.

extension OperatorCase {
    /// `WithLatestFrom.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let withLatestFromCases: [OperatorCase] = [
        OperatorCase(name: "withLatestFrom", apply: { $0.withLatestFrom(Signal<String, TestError>.just("1"), +) },
                     completing: ("-a-b-|", "-(a1)-(b1)-|"), failing: ("-a-#", "-(a1)-#")),
    ]
}

@Suite struct WithLatestFromTests {
    @Test func withLatestFromIgnoresTheOtherCompletingButNotItsFailure() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let completing = scheduler.cold("-a--b|").signal.withLatestFrom(scheduler.cold("1|").signal, +)
        #expect(scheduler.marbles(of: completing) == "-(a1)--(b1)|")
        let other = TestScheduler()
        defer { other.cancelAll() }
        let failing = other.cold("-a--b|").signal.withLatestFrom(other.cold("1-#").signal, +)
        #expect(other.marbles(of: failing) == "-(a1)#")
    }
}
