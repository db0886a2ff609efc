import Signals
import SignalsTesting
import Synchronization
import Testing

/// Behaviour specific to single operators, beyond the shared contract.
@Suite struct OperatorBehaviourTests {
    // T-OP1
    @Test func scanStartsAfreshForEachSubscription() throws {
        let running = [1, 2, 3].signal.scan(0, +)
        #expect(try running.blocking().toArray() == [1, 3, 6])
        #expect(try running.blocking().toArray() == [1, 3, 6])
    }

    @Test func reduceAndCollectOfAnEmptyStream() throws {
        #expect(try Signal<Int, Never>.empty.reduce(7, +).blocking().toArray() == [7])
        #expect(try Signal<Int, Never>.empty.collect().blocking().toArray() == [[]])
    }

    @Test func materializeNeverFailsAndDematerializeRestoresTheFailure() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-#")
        let recorder = scheduler.record(source.signal.materialize())
        scheduler.run()
        #expect(recorder.elements == [.value(.value("a")), .value(.failed(TestError())), .completed])
        let restored: Signal<String, TestError> = source.signal.materialize().dematerialize()
        let roundTrip = Recorder<String, TestError>(scheduler: scheduler)
        roundTrip.subscribe(to: restored)
        scheduler.run()
        #expect(roundTrip.elements == [.value("a"), .failed(TestError())])
    }

    @Test func mapKeyPath() throws {
        #expect(try ["a", "bcd"].signal.map(\.count).blocking().toArray() == [1, 3])
    }

    // T-OP2
    @Test func prefixZeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.prefix(0)) == "|")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func prefixDisposesTheSourceWhenDone() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-d-|")
        _ = scheduler.marbles(of: source.signal.prefix(2))
        #expect(source.subscriptions == ["^--!"])
    }

    @Test func prefixUntilOutputFromATriggerThatFiresAtOnceNeverSubscribesTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: Signal<Int, Never>.just(1))) == "|")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func prefixUntilOutputFromDisposesBothWhenTheTriggerFires() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-d-|")
        let trigger = scheduler.hot("----x-y-")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: trigger.signal)) == "-a-b|")
        #expect(source.subscriptions == ["^---!"])
        #expect(trigger.subscriptions == ["^---!"])
    }

    @Test func dropUntilOutputFromReleasesTheTriggerAtItsFirstValue() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-|")
        let trigger = scheduler.hot("--x-y-z")
        #expect(scheduler.marbles(of: source.signal.drop(untilOutputFrom: trigger.signal)) == "---b-c-|")
        #expect(trigger.subscriptions == ["^-!"])
        #expect(source.subscriptions == ["^------!"])
    }

    @Test func dropUntilOutputFromATriggerThatNeverFiresEmitsOnlyTheEnd() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-|")
        let trigger = scheduler.cold("--|")
        #expect(scheduler.marbles(of: source.signal.drop(untilOutputFrom: trigger.signal)) == "-----|")
    }

    // Issue 15: take(until:) and skip(until:) forward a failing trigger, as RxSwift does.

    @Test func prefixUntilOutputFromFailsWhenTheTriggerFails() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-d-|")
        let trigger = scheduler.cold("---#", values: [String: String](), error: TestError("trigger"))
        let recorder = scheduler.record(source.signal.prefix(untilOutputFrom: trigger.signal))
        scheduler.run()
        #expect(scheduler.diagram(of: recorder) == "-a-#")
        #expect(recorder.failure == TestError("trigger"))
        #expect(source.subscriptions == ["^--!"])
        #expect(trigger.subscriptions == ["^--!"])
    }

    @Test func prefixUntilOutputFromATriggerThatFailsAtOnceFailsWithoutSubscribingTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: Signal<Int, TestError>.fail(TestError()))) == "#")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func prefixUntilOutputFromIgnoresATriggerThatCompletes() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let trigger = scheduler.cold("--|")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: trigger.signal)) == "-a-b-c-|")
        #expect(trigger.subscriptions == ["^-!"])
    }

    @Test func dropUntilOutputFromFailsWhenTheTriggerFailsBeforeItsFirstValue() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let trigger = scheduler.cold("--#", values: [String: String](), error: TestError("trigger"))
        let recorder = scheduler.record(source.signal.drop(untilOutputFrom: trigger.signal))
        scheduler.run()
        #expect(scheduler.diagram(of: recorder) == "--#")
        #expect(recorder.failure == TestError("trigger"))
        #expect(source.subscriptions == ["^-!"])
        #expect(trigger.subscriptions == ["^-!"])
    }

    @Test func dropUntilOutputFromIgnoresAFailureAfterTheTriggerFired() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let trigger = scheduler.cold("--x-#")
        #expect(scheduler.marbles(of: source.signal.drop(untilOutputFrom: trigger.signal)) == "---b-c-|")
        #expect(trigger.subscriptions == ["^-!"])
    }

    @Test func untilOutputFromOverloadsKeepEveryFailureTyped() {
        // Each stream on a scheduler of its own, so that each diagram starts at tick 0.
        func calm(_ scheduler: TestScheduler) -> Signal<String, Never> {
            scheduler.cold("-a-b-c-|").signal.replaceErrorWithCompletion()
        }
        func failing(_ scheduler: TestScheduler) -> Signal<String, TestError> {
            scheduler.cold("--#", values: [String: String](), error: TestError("trigger")).signal
        }
        let never: Signal<Int, Never> = .never
        // A source that cannot fail takes the trigger's failure type, and fails with it.
        let one = TestScheduler(), two = TestScheduler()
        let prefixed: Signal<String, TestError> = calm(one).prefix(untilOutputFrom: failing(one))
        let dropped: Signal<String, TestError> = calm(two).drop(untilOutputFrom: failing(two))
        #expect(one.marbles(of: prefixed) == "-a#")
        #expect(two.marbles(of: dropped) == "--#")
        // A trigger that cannot fail leaves the source's failure type.
        let three = TestScheduler(), four = TestScheduler(), five = TestScheduler()
        let kept: Signal<String, TestError> = three.cold("-a-#").signal.prefix(untilOutputFrom: never)
        let quiet: Signal<String, Never> = calm(four).prefix(untilOutputFrom: never)
        let skipped: Signal<String, Never> = calm(five).drop(untilOutputFrom: Signal<Int, Never>.just(1))
        #expect(three.marbles(of: kept) == "-a-#")
        #expect(four.marbles(of: quiet) == "-a-b-c-|")
        #expect(five.marbles(of: skipped) == "-a-b-c-|")
        for scheduler in [one, two, three, four, five] { scheduler.cancelAll() }
    }

    @Test func removeDuplicatesByACustomComparison() throws {
        let values = try ["a", "A", "b", "B", "a"].signal.removeDuplicates { $0.lowercased() == $1.lowercased() }.blocking().toArray()
        #expect(values == ["a", "b", "a"])
    }

    // T-OP6
    @Test func catchSwitchesToTheFallbackAndDisposesIt() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-#")
        let fallback = scheduler.hot("------x-y-z")
        let recorder = scheduler.record(source.signal.catch { _ in fallback.signal }, subscribeAt: 0, disposeAt: 9)
        scheduler.run()
        #expect(scheduler.diagram(of: recorder, showSubscription: true) == "^a----x-y!")
        #expect(fallback.subscriptions == ["---^-----!"])
    }

    @Test func catchReceivesTheError() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-#", values: [String: String](), error: TestError("original"))
        let recorder = scheduler.record(source.signal.catch { error in Signal<String, Never>.just(error.message) })
        scheduler.run()
        #expect(recorder.recordedValues == ["original"])
    }

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

    @Test func setFailureTypeAndMapError() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let widened: Signal<String, TestError> = scheduler.cold("-a-|", values: ["a": "a"], error: TestError()).signal
        let mapped = widened.mapError { TestError("mapped: \($0.message)") }
        #expect(scheduler.marbles(of: mapped) == "-a-|")
        let failing = scheduler.cold("#").signal.mapError { TestError("mapped: \($0.message)") }
        let recorder = Recorder<String, TestError>()
        recorder.subscribe(to: failing)
        scheduler.run()
        #expect(recorder.failure == TestError("mapped: test error"))
    }

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

    @Test func logEventsWritesOneNamedLinePerEvent() {
        let lines = Locked<[String]>([])
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let logged = scheduler.cold("-a-#").signal.logEvents("search") { line in lines.withLock { $0.append(line) } }
        _ = scheduler.marbles(of: logged)
        #expect(lines.withLock { $0 } == ["search: subscribed", "search: value(a)", "search: failed(test error)"])

        lines.withLock { $0 = [] }
        let disposed = scheduler.record(scheduler.cold("-a-b").signal.logEvents("search") { line in lines.withLock { $0.append(line) } })
        scheduler.advance(ticks: 2)
        disposed.dispose()
        #expect(lines.withLock { $0 } == ["search: subscribed", "search: value(a)", "search: disposed"])
    }
}
