import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/Race.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour. The array forms of the combining
// operators with no input are checked together in OperatorContractTests.
// T-OP3: combining behaviour.

extension OperatorCase {
    /// `Race.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let raceCases: [OperatorCase] = [
        OperatorCase(name: "race", apply: { $0.race(.never) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct RaceTests {
    @Test func raceDisposesTheLosers() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let slow = scheduler.hot("---a-|")
        let fast = scheduler.hot("-1---2-|")
        #expect(scheduler.marbles(of: slow.signal.race(fast.signal)) == "-1---2-|")
        #expect(slow.subscriptions == ["^!"])
    }
}
