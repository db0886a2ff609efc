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

    /// The current inner subscription ends with the output: when it is disposed, and when the
    /// outer stream fails (the switch keeps the current inner in its own state, not in a
    /// disposable of its resources, so this is its own check).
    @Test func endingTheOutputEndsTheCurrentInner() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let inner = scheduler.hot("-a-b-c-d-e-|")
        let outer = scheduler.hot("-x------", values: ["x": inner.signal])
        #expect(scheduler.marbles(of: outer.signal.switchToLatest(), disposeAt: 6) == "---b-c!")
        #expect(inner.subscriptions == ["-^----!"])

        let failing = TestScheduler()
        defer { failing.cancelAll() }
        let second = failing.hot("-a-b-c-d-e-|")
        let failingOuter = failing.hot("-x--#", values: ["x": second.signal])
        #expect(failing.marbles(of: failingOuter.signal.switchToLatest()) == "---b#")
        #expect(second.subscriptions == ["-^--!"])
    }
}
