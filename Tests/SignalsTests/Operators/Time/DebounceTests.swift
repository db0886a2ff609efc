import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Debounce.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// T-OP5: time operators, in virtual time.

extension OperatorCase {
    /// `Debounce.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let debounceCases: [OperatorCase] = [
        OperatorCase(name: "debounce", timed: { $0.debounce(for: .seconds(1), on: $1) },
                     completing: ("-a-b-|", "--a-b|"), failing: ("-a-#", "--a#")),
    ]
}

@Suite struct DebounceTests {
    @Test func debounceDropsThePendingValueOnFailure() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        #expect(scheduler.marbles(of: scheduler.cold("ab#").signal.debounce(for: .seconds(3), on: scheduler)) == "--#")
    }

    @Test func anObserverSendingBackIntoADebouncedSourceDoesNotDeadlock() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let subscription = subject.signal.debounce(for: .seconds(1), on: scheduler).sink(value: { value in
            received.withLock { $0.append(value) }
            if value < 3 { subject.send(value + 1) }
        })
        subject.send(1)
        scheduler.run()
        #expect(received.value == [1, 2, 3])
        subscription.dispose()
    }
}
