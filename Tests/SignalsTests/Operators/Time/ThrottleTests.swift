import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Throttle.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// T-OP5: time operators, in virtual time.

extension OperatorCase {
    /// `Throttle.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let throttleCases: [OperatorCase] = [
        OperatorCase(name: "throttle", timed: { $0.throttle(for: .seconds(3), on: $1) },
                     completing: ("-ab-c-|", "-a--c-|"), failing: ("-ab-#", "-a--#")),
        OperatorCase(name: "throttle(keeping: .first)", timed: { $0.throttle(for: .seconds(3), on: $1, keeping: .first) },
                     completing: ("-ab-c-|", "-a--c-|"), failing: ("-ab-#", "-a--#")),
    ]
}

@Suite struct ThrottleTests {
    @Test func throttleWithoutLatestDropsValuesInsideTheWindow() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let throttled = scheduler.cold("abcd-e|").signal.throttle(for: .seconds(3), on: scheduler, keeping: .first)
        // a opens a window; b and c fall inside it; d at tick 3 opens the next; e inside it.
        #expect(scheduler.marbles(of: throttled) == "a--d--|")
    }

    @Test func throttleEmitsThePendingValueBeforeCompleting() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let throttled = scheduler.cold("ab|").signal.throttle(for: .seconds(3), on: scheduler)
        #expect(scheduler.marbles(of: throttled) == "a--[b|]")
    }
}
