import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/HigherOrder/SwitchToLatest.swift`: its cases of the
// shared contract (run by `OperatorContractTests`) and its own behaviour.
// T-OP4: higher-order behaviour.

extension OperatorCase {
    /// `SwitchToLatest.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let switchToLatestCases: [OperatorCase] = [
        OperatorCase(name: "flatMapLatest", apply: { $0.flatMapLatest { .just($0.uppercased()) } },
                     completing: ("-a-b-|", "-A-B-|"), failing: ("-a-#", "-A-#")),
    ]
}

@Suite struct SwitchToLatestTests {
    @Test func switchToLatestDisposesTheReplacedInner() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let first = scheduler.hot("-a-b-c-d-|")
        let second = scheduler.hot("-1-2-3-4-5-|")
        let outer = scheduler.hot("-x---y---|", values: ["x": first.signal, "y": second.signal])
        let output = outer.signal.switchToLatest()
        // At tick 5, first's c was scheduled before the outer y, so it still gets through.
        #expect(scheduler.marbles(of: output) == "---b-c-4-5-|")
        #expect(first.subscriptions == ["-^---!"])
        #expect(second.subscriptions == ["-----^-----!"])
    }
}
