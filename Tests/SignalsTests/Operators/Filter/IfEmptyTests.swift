import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/IfEmpty.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// Issue 15: the operators RxSwift users expect.

extension OperatorCase {
    /// `IfEmpty.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let ifEmptyCases: [OperatorCase] = [
        OperatorCase(name: "ifEmpty(default:)", apply: { $0.ifEmpty(default: "z") },
                     completing: ("---|", "---[z|]"), failing: ("-#", "-#")),
        OperatorCase(name: "ifEmpty(switchTo:)", apply: { $0.ifEmpty(switchTo: Signal(sequence: ["y", "z"])) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct IfEmptyTests {
    @Test func ifEmptyDefaultPassesValuesThrough() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: scheduler.cold("-a-b-|").signal.ifEmpty(default: "x")) == "-a-b-|")
    }

    @Test func ifEmptyDefaultForwardsAFailureWithoutTheDefault() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: scheduler.cold("--#").signal.ifEmpty(default: "x")) == "--#")
    }

    @Test func ifEmptySwitchToNeverSubscribesTheFallbackWhenThereWereValues() {
        let scheduler = TestScheduler()
        let other = scheduler.cold("-x-|")
        #expect(scheduler.marbles(of: scheduler.cold("-a-|").signal.ifEmpty(switchTo: other.signal)) == "-a-|")
        #expect(other.subscriptions.isEmpty)
    }

    @Test func ifEmptySwitchToNeverSubscribesTheFallbackOnFailure() {
        let scheduler = TestScheduler()
        let other = scheduler.cold("-x-|")
        #expect(scheduler.marbles(of: scheduler.cold("--#").signal.ifEmpty(switchTo: other.signal)) == "--#")
        #expect(other.subscriptions.isEmpty)
    }

    @Test func ifEmptySwitchToForwardsTheFallbacksFailure() {
        let scheduler = TestScheduler()
        let other = scheduler.cold("-x#")
        #expect(scheduler.marbles(of: scheduler.cold("--|").signal.ifEmpty(switchTo: other.signal)) == "---x#")
        #expect(other.activeSubscriptionCount == 0)
    }

    @Test func ifEmptySwitchToOfASynchronouslyEmptyStream() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: Signal<String, TestError>.empty.ifEmpty(switchTo: ["x", "y"].signal.setFailureType(to: TestError.self))) == "[xy|]")
    }

    @Test func ifEmptySwitchToDisposalDisposesTheFallback() {
        let scheduler = TestScheduler()
        let other = scheduler.cold("-x-y-|")
        let recorder = scheduler.record(scheduler.cold("-|").signal.ifEmpty(switchTo: other.signal), subscribeAt: 0, disposeAt: 3)
        scheduler.run()
        #expect(recorder.recordedValues == ["x"])
        #expect(recorder.completion == nil)
        #expect(other.activeSubscriptionCount == 0)
        #expect(other.subscriptions.count == 1)
    }
}
