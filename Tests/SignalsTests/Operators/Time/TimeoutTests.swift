import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Timeout.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// T-OP5: time operators, in virtual time.

extension OperatorCase {
    /// `Timeout.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let timeoutCases: [OperatorCase] = [
        OperatorCase(name: "timeout", timed: { $0.timeout(for: .seconds(5), on: $1) { TestError("timeout") } },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct TimeoutTests {
    @Test func timeoutIsResetByEachValue() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-a-a-a-|")
        let guarded = source.signal.timeout(for: .seconds(3), on: scheduler) { TestError("slow") }
        #expect(scheduler.marbles(of: guarded) == "-a-a-a-a-|")
    }

    @Test func timeoutFailsWithTheTypedErrorAndDisposesTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a------b-|")
        let recorder = scheduler.record(source.signal.timeout(for: .seconds(2), on: scheduler) { TestError("slow") })
        scheduler.run()
        #expect(recorder.failure == TestError("slow"))
        #expect(source.subscriptions == ["^--!"])
    }
}
