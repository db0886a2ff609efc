import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Errors/Retry.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `Retry.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let retryCases: [OperatorCase] = [
        OperatorCase(name: "retry(upTo:)", apply: { $0.retry(upTo: 1) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a--a-#")),
    ]
}

@Suite struct RetryTests {
    @Test func retryResubscribesAndGivesUpAfterTheCount() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-#")
        #expect(scheduler.marbles(of: source.signal.retry(upTo: 2)) == "-a--a--a-#")
        #expect(source.subscriptions == ["^--!", "---^--!", "------^--!"])
    }

    // Issue 15: retry(upTo: n) counts re-subscriptions; RxSwift's retry(n) is retry(upTo: n - 1).
    @Test func retryUpToCountsResubscriptionsAfterTheFirstFailure() {
        for (count, expected) in [(0, "-a-#"), (1, "-a--a-#"), (2, "-a--a--a-#")] {
            let scheduler = TestScheduler()
            let source = scheduler.cold("-a-#")
            #expect(scheduler.marbles(of: source.signal.retry(upTo: count)) == expected)
            #expect(source.subscriptions.count == count + 1, "retry(upTo: \(count)): the first subscription and \(count) more")
            scheduler.cancelAll()
        }
    }

    @Test func rxSwiftRetryThreeIsRetryUpToTwo() {
        // RxSwift: `retry(3)` subscribes at most three times in all.
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-#")
        let recorder = scheduler.record(source.signal.retry(upTo: 3 - 1))
        scheduler.run()
        #expect(source.subscriptions == ["^!", "-^!", "--^!"])
        #expect(recorder.failure == TestError())
    }

    @Test func retryUpToStopsRetryingOnceAnAttemptSucceeds() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let attempts = Locked(0)
        let flaky = Signal<String, TestError>.deferred {
            attempts.withLock { $0 += 1 }
            return attempts.value < 2 ? scheduler.cold("-a-#").signal : scheduler.cold("-b-|").signal
        }
        #expect(scheduler.marbles(of: flaky.retry(upTo: 5)) == "-a--b-|")
        #expect(attempts.value == 2)
    }

    @Test func retryOfASynchronousFailureLoopsWithoutRecursion() {
        let attempts = Locked(0)
        let failing = Signal<Int, TestError> { observer in
            attempts.withLock { $0 += 1 }
            observer.sendFailed(TestError())
            return NopDisposable()
        }
        let recorder = Recorder<Int, TestError>()
        recorder.subscribe(to: failing.retry(upTo: 100_000))
        #expect(attempts.withLock { $0 } == 100_001)
        #expect(recorder.failure == TestError())
    }

    @Test func retryStopsWhenDisposed() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-#")
        let recorder = scheduler.record(source.signal.retry(upTo: 1_000), subscribeAt: 0, disposeAt: 3)
        scheduler.advance(ticks: 10)
        #expect(recorder.events.isEmpty)
        #expect(source.activeSubscriptionCount == 0)
        #expect(source.subscriptions.count == 3)
    }
}
