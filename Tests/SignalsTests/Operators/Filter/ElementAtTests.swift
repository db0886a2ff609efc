import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/ElementAt.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.
// Issue 15: the operators RxSwift users expect.

extension OperatorCase {
    /// `ElementAt.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let elementAtCases: [OperatorCase] = [
        OperatorCase(name: "element(at:)", apply: { $0.element(at: 1) },
                     completing: ("-a-b-c-|", "---[b|]"), failing: ("-a-#", "---#")),
    ]
}

@Suite struct ElementAtTests {
    @Test func elementAtOfAnEmptyStreamCompletesEmpty() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: scheduler.cold("---|").signal.element(at: 0)) == "---|")
    }

    @Test func elementAtOfATooShortStreamCompletesEmpty() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: scheduler.cold("-a-b-|").signal.element(at: 2)) == "-----|")
    }

    @Test func elementAtForwardsAFailureBeforeTheValue() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: scheduler.cold("-a-#").signal.element(at: 1)) == "---#")
    }

    @Test func elementAtDisposesTheSourceWithTheValue() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-c-|")
        #expect(scheduler.marbles(of: source.signal.element(at: 0)) == "-[a|]")
        #expect(source.subscriptions == ["^!"])
    }

    @Test func elementAtStopsWhenDisposedFirst() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-|")
        let recorder = scheduler.record(source.signal.element(at: 2), subscribeAt: 0, disposeAt: 3)
        scheduler.run()
        #expect(recorder.events.isEmpty)
        #expect(source.activeSubscriptionCount == 0)
    }
}
