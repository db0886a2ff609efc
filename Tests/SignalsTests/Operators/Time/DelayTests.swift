import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Delay.swift`: its cases of the shared contract (run
// by `OperatorContractTests`) and its own behaviour.
// T-OP5: time operators, in virtual time.

extension OperatorCase {
    /// `Delay.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let delayCases: [OperatorCase] = [
        OperatorCase(name: "delay", timed: { $0.delay(for: .seconds(1), on: $1) },
                     completing: ("-a-b-|", "--a-b-|"), failing: ("-a-#", "--a#")),
    ]
}

@Suite struct DelayTests {
    @Test func delayedValuesAreNotDeliveredAfterDisposal() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let recorder = scheduler.record(scheduler.cold("a|").signal.delay(for: .seconds(5), on: scheduler), subscribeAt: 0, disposeAt: 2)
        scheduler.run()
        #expect(recorder.events.isEmpty)
        #expect(scheduler.pendingActionCount == 0, "pending timers were cancelled")
    }
}
