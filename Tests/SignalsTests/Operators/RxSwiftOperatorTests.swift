import Signals
import SignalsTesting
import Synchronization
import Testing

/// Issue 15: the operators RxSwift users expect, beyond their diagrams and the shared contract.
@Suite struct RxSwiftOperatorTests {
    // MARK: element(at:)

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

    // MARK: ifEmpty

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

    // MARK: take(for:on:)

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

    // MARK: retry(when:)

    @Test func retryWhenBacksOffExponentiallyThenGivesUpWithTheFailure() {
        // The doc comment's example, on a request that always fails after one tick.
        let scheduler = TestScheduler()
        let request = scheduler.cold("-#", values: [String: String](), error: TestError("down"))
        let resilient = request.signal.retry(when: { failures in
            failures
                .scan((attempt: 0, failure: TestError?.none)) { state, failure in (state.attempt + 1, failure) }
                .setFailureType(to: TestError.self)
                .flatMap { state -> Signal<Int, TestError> in
                    state.attempt > 3
                        ? .fail(state.failure!)
                        : .just(state.attempt).delay(for: .seconds(1 << state.attempt), on: scheduler)
                }
        })
        let recorder = scheduler.record(resilient)
        scheduler.run()
        // Failures at ticks 1, 4 (after 2), 9 (after 4) and 18 (after 8), then the fourth gives up.
        #expect(request.subscriptions.count == 4)
        #expect(request.subscriptions.last?.hasPrefix("-----------------^") == true, "\(request.subscriptions)")
        #expect(recorder.failure == TestError("down"))
        #expect(recorder.events.last?.time == SchedulerInstant(sinceEpoch: .seconds(18)))
    }

    @Test func retryWhenCompletesWithTheSource() {
        let scheduler = TestScheduler()
        let output = scheduler.cold("-a-|").signal.retry(when: { $0.setFailureType(to: TestError.self) })
        #expect(scheduler.marbles(of: output) == "-a-|")
    }

    @Test func retryWhenWithAnEmptyTriggerCompletesWithoutSubscribing() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-|")
        let output = source.signal.retry(when: { _ in Signal<Int, Never>.empty })
        #expect(scheduler.marbles(of: output) == "|")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func retryWhenWithAFailingTriggerFailsWithItsFailure() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-#")
        let recorder = scheduler.record(source.signal.retry(when: { failures in
            failures.setFailureType(to: TestError.self).flatMap { _ in Signal<Int, TestError>.fail(TestError("gave up")) }
        }))
        scheduler.run()
        #expect(recorder.recordedValues == ["a"])
        #expect(recorder.failure == TestError("gave up"))
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test func retryWhenRetriesASynchronousFailureInALoop() {
        let subscriptions = Atomic(0)
        let failing = Signal<Int, TestError>.deferred {
            subscriptions.add(1, ordering: .relaxed)
            return .fail(TestError())
        }
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: failing.retry(when: { $0.prefix(10_000) }))
        #expect(recorder.isCompleted)
        // The first subscription, then one per trigger value.
        #expect(subscriptions.load(ordering: .relaxed) == 10_001)
    }

    @Test func retryWhenDisposalStopsTheAttemptAndTheTrigger() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a#")
        let recorder = scheduler.record(source.signal.retry(when: { $0.delay(for: .seconds(5), on: scheduler) }), subscribeAt: 0, disposeAt: 4)
        scheduler.run()
        #expect(recorder.recordedValues == ["a"])
        #expect(recorder.completion == nil)
        #expect(source.subscriptions.count == 1)
        #expect(scheduler.pendingActionCount == 0)
    }
}

/// Issue 15: `window(timeSpan:count:on:)`.
@Suite struct WindowOperatorTests {
    static func collected(_ signal: Signal<String, TestError>, _ scheduler: TestScheduler, span: Int, count: Int) -> Signal<String, TestError> {
        signal.window(timeSpan: .seconds(span), count: count, on: scheduler).flatMap { $0.collect().map { $0.joined() } }
    }

    @Test func anEmptyStreamEmitsOneEmptyWindow() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: Self.collected(scheduler.cold("--|").signal, scheduler, span: 5, count: 3)) == "--[()|]")
    }

    @Test func emptyWindowsAreEmittedEverySpan() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: Self.collected(scheduler.cold("-----|").signal, scheduler, span: 2, count: 3)) == "--()-()[()|]")
    }

    @Test func aFullWindowRestartsTheSpan() {
        let scheduler = TestScheduler()
        // a, b fill the first window at tick 2; the next span runs from 2 to 5 (not 3 to 6).
        #expect(scheduler.marbles(of: Self.collected(scheduler.cold("-ab---c|").signal, scheduler, span: 3, count: 2)) == "--(ab)--()-[c|]")
    }

    @Test func aFailureFailsTheOpenWindowAndTheOutput() {
        let scheduler = TestScheduler()
        let windows = Recorder<Signal<String, TestError>, TestError>()
        let source = scheduler.cold("-a-#")
        windows.subscribe(to: source.signal.window(timeSpan: .seconds(10), count: 5, on: scheduler))
        let first = Recorder<String, TestError>()
        first.subscribe(to: windows.recordedValues[0])
        scheduler.run()
        #expect(first.recordedValues == ["a"])
        #expect(first.failure == TestError())
        #expect(windows.failure == TestError())
        #expect(windows.recordedValues.count == 1)
    }

    @Test func disposalCancelsTheTimerAndTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-|")
        let recorder = scheduler.record(source.signal.window(timeSpan: .seconds(2), count: 5, on: scheduler), subscribeAt: 0, disposeAt: 3)
        scheduler.advance(by: .seconds(3))
        #expect(recorder.recordedValues.count == 2)
        #expect(source.activeSubscriptionCount == 0)
        #expect(scheduler.pendingActionCount == 2, "only the hot source's c and |, no window timer")
    }
}
