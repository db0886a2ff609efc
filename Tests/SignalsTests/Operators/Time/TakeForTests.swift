import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/TakeFor.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// Issue 15: the operators RxSwift users expect.

extension OperatorCase {
    /// `TakeFor.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let takeForCases: [OperatorCase] = [
        OperatorCase(name: "take(for:on:)", timed: { $0.take(for: .seconds(4), on: $1) },
                     completing: ("-a-b-c-|", "-a-b|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct TakeForTests {
    @Test func takeForCompletesANeverEndingStreamAfterTheDuration() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: Signal<String, TestError>.never.take(for: .seconds(3), on: scheduler)) == "---|")
    }

    @Test func takeForEndsWithAnEarlierCompletionAndCancelsTheTimer() {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(scheduler.cold("-a|").signal.take(for: .seconds(10), on: scheduler))
        scheduler.advance(by: .seconds(2))
        #expect(recorder.recordedValues == ["a"])
        #expect(recorder.isCompleted)
        #expect(scheduler.pendingActionCount == 0, "the timer was cancelled")
    }

    @Test func takeForForwardsAFailure() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: scheduler.cold("-#").signal.take(for: .seconds(3), on: scheduler)) == "-#")
    }

    @Test func takeForDisposesTheSourceAtTheEnd() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-|")
        #expect(scheduler.marbles(of: source.signal.take(for: .seconds(2), on: scheduler)) == "-a|")
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test func takeForDisposalCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-|")
        let recorder = scheduler.record(source.signal.take(for: .seconds(5), on: scheduler), subscribeAt: 0, disposeAt: 2)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.recordedValues == ["a"])
        #expect(source.activeSubscriptionCount == 0)
        scheduler.run()
        #expect(recorder.completion == nil)
    }
}
