import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Debug/HandleEvents.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `HandleEvents.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let handleEventsCases: [OperatorCase] = [
        OperatorCase(name: "handleEvents", apply: { $0.handleEvents(onValue: { _ in }, onDispose: {}) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct HandleEventsTests {
    // T-OP8
    @Test func handleEventsRunsEachCallbackInOrderAndDisposeOnlyOnCancel() {
        let log = Locked<[String]>([])
        func handled(_ signal: Signal<String, TestError>) -> Signal<String, TestError> {
            signal.handleEvents(
                onSubscribe: { log.withLock { $0.append("subscribe") } },
                onValue: { value in log.withLock { $0.append("value \(value)") } },
                onCompletion: { completion in log.withLock { $0.append("completion \(completion)") } },
                onDispose: { log.withLock { $0.append("dispose") } }
            )
        }
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let finishing = scheduler.record(handled(scheduler.cold("-a-|").signal))
        scheduler.run()
        finishing.dispose()
        #expect(log.withLock { $0 } == ["subscribe", "value a", "completion completed"])

        log.withLock { $0 = [] }
        let cancelled = scheduler.record(handled(scheduler.cold("-a-b-|").signal))
        scheduler.advance(ticks: 2)
        cancelled.dispose()
        #expect(log.withLock { $0 } == ["subscribe", "value a", "dispose"])
    }
}
