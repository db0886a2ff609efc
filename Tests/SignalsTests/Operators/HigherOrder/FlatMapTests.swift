import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/HigherOrder/FlatMap.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.
// T-OP4: higher-order behaviour.

extension OperatorCase {
    /// `FlatMap.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let flatMapCases: [OperatorCase] = [
        OperatorCase(name: "flatMap", apply: { $0.flatMap { .just($0.uppercased()) } },
                     completing: ("-a-b-|", "-A-B-|"), failing: ("-a-#", "-A-#")),
        OperatorCase(name: "concatMap", apply: { $0.concatMap { Signal(sequence: [$0, $0.uppercased()]) } },
                     completing: ("-a-b-|", "-[aA]-[bB]-|"), failing: ("-a-#", "-[aA]-#")),
    ]
}

@Suite struct FlatMapTests {
    @Test func flatMapWithALimitQueuesInnerStreamsInOrder() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let outer = scheduler.cold("abc|")
        let inner: @Sendable (String) -> Signal<String, TestError> = { value in scheduler.cold("--\(value)|").signal }
        // a (tick 0) and b (tick 1) run at once; c waits for a's stream to complete at tick 3.
        #expect(scheduler.marbles(of: outer.signal.flatMap(maxConcurrent: 2, inner)) == "--ab-c|")
        let scheduler2 = TestScheduler()
        defer { scheduler2.cancelAll() }
        let inner2: @Sendable (String) -> Signal<String, TestError> = { value in scheduler2.cold("--\(value)|").signal }
        #expect(scheduler2.marbles(of: scheduler2.cold("abc|").signal.flatMap(maxConcurrent: 1, inner2)) == "--a--b--c|")
    }

    @Test func anInnerFailureFailsFlatMapAndDisposesTheOthers() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let long = scheduler.hot("-------a-|")
        let outer = scheduler.cold("xy|", values: ["x": long.signal, "y": Signal<String, TestError>.fail(TestError())])
        #expect(scheduler.marbles(of: outer.signal.flatMap { $0 }) == "-#")
        #expect(long.activeSubscriptionCount == 0)
    }
}
