import Signals
import SignalsTesting
import Synchronization
import Testing

// The tests of `Sources/Signals/Operators/Errors/RetryWhen.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.
// Issue 15: the operators RxSwift users expect.

extension OperatorCase {
    /// `RetryWhen.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let retryWhenCases: [OperatorCase] = [
        OperatorCase(name: "retry(when:)", apply: { $0.retry(when: { failures in
                         failures.scan(0) { count, _ in count + 1 }.setFailureType(to: TestError.self)
                             .flatMap { count in count > 1 ? .fail(TestError()) : .just(count) }
                     }) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a--a-#")),
    ]
}

@Suite struct RetryWhenTests {
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

    /// Issue 28: `failures.prefix(3)`, the "retry three times" idiom, retries three times, as
    /// in RxSwift. The trigger sends its third value and completes at once; that value's retry
    /// still runs, and its failure completes the output. (Before, the completion ended the
    /// output at once, cutting the third retry off: users got one retry fewer than they wrote.)
    @Test func aTriggerThatCompletesWithItsLastValueStillRetries() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a#")
        let output = source.signal.retry(when: { $0.prefix(3) })
        #expect(scheduler.marbles(of: output) == "-a-a-a-a|")
        #expect(source.subscriptions == ["^-!", "--^-!", "----^-!", "------^-!"])
    }

    /// The last retry that succeeds completes the output with its values.
    @Test func theLastRetryMaySucceed() {
        let attempts = Locked(0)
        let flaky = Signal<String, TestError>.deferred {
            let attempt = attempts.withLock { $0 += 1; return $0 }
            return attempt < 4 ? .fail(TestError("down")) : .just("ok")
        }
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: flaky.retry(when: { $0.prefix(3) }))
        #expect(recorder.elements == [.value("ok"), .completed])
        #expect(attempts.value == 4)
    }

    /// A trigger that completes while no retry is running (it answered a failure with no
    /// value) completes the output at once.
    @Test func aTriggerThatCompletesWithoutAValueCompletesAtOnce() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a#")
        let output = source.signal.retry(when: { failures in failures.prefix(while: { _ in false }) })
        #expect(scheduler.marbles(of: output) == "-a|")
        #expect(source.subscriptions == ["^-!"])
    }
}
