import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/Sample.swift`: its own behaviour. Its
// documented diagram is also run by DocumentationTests (DocDiagramTests).

@Suite struct SampleTests {
    // Until issue 18, `sample` was tested only by the documentation's diagram runner.

    /// The diagram of `sample(_:)`'s documentation.
    @Test func emitsTheLatestNewValueAtEachTrigger() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let sampled = scheduler.cold("-a-b---c---|").signal.sample(scheduler.cold("----x-x-x---x-|").signal)
        #expect(scheduler.marbles(of: sampled) == "----b---c---|")
    }

    /// When the trigger completes, a pending value is emitted and the result completes.
    @Test func theTriggerCompletingEmitsThePendingValueAndCompletes() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let sampled = scheduler.cold("-a-b---|").signal.sample(scheduler.cold("--x--|").signal)
        #expect(scheduler.marbles(of: sampled) == "--a--[b|]")
    }

    /// Issue 28, a difference from RxSwift kept on purpose: when the trigger completes, the
    /// result completes (after the pending value) and lets go of the source, since no value can
    /// come after; RxSwift keeps the source subscribed until it ends.
    @Test func theTriggerCompletingReleasesTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b----c--|")
        let sampled = source.signal.sample(scheduler.cold("--x--|").signal)
        #expect(scheduler.marbles(of: sampled) == "--a--[b|]")
        #expect(source.subscriptions == ["^----!"])
    }
}
