import Signals
import SignalsTesting
import Testing

/// T-OP5: time operators, in virtual time, beyond their diagrams and the shared contract.
@Suite struct TimeOperatorTests {
    @Test func debounceDropsThePendingValueOnFailure() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        #expect(scheduler.marbles(of: scheduler.cold("ab#").signal.debounce(for: .seconds(3), on: scheduler)) == "--#")
    }

    @Test func throttleWithoutLatestDropsValuesInsideTheWindow() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let throttled = scheduler.cold("abcd-e|").signal.throttle(for: .seconds(3), on: scheduler, keeping: .first)
        // a opens a window; b and c fall inside it; d at tick 3 opens the next; e inside it.
        #expect(scheduler.marbles(of: throttled) == "a--d--|")
    }

    @Test func throttleEmitsThePendingValueBeforeCompleting() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let throttled = scheduler.cold("ab|").signal.throttle(for: .seconds(3), on: scheduler)
        #expect(scheduler.marbles(of: throttled) == "a--[b|]")
    }

    @Test func timeoutIsResetByEachValue() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-a-a-a-|")
        let guarded = source.signal.timeout(for: .seconds(3), on: scheduler) { TestError("slow") }
        #expect(scheduler.marbles(of: guarded) == "-a-a-a-a-|")
    }

    @Test func timeoutFailsWithTheTypedErrorAndDisposesTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a------b-|")
        let recorder = scheduler.record(source.signal.timeout(for: .seconds(2), on: scheduler) { TestError("slow") })
        scheduler.run()
        #expect(recorder.failure == TestError("slow"))
        #expect(source.subscriptions == ["^--!"])
    }

    @Test func intervalTicksUntilDisposed() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let recorder = scheduler.record(Signal.interval(.seconds(1), on: scheduler))
        scheduler.advance(by: .seconds(3))
        recorder.dispose()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.recordedValues == [0, 1, 2])
        #expect(scheduler.pendingActionCount == 0, "the timer was cancelled")
    }

    @Test func timerWithAPeriodKeepsCounting() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let recorder = scheduler.record(Signal.timer(after: .seconds(2), period: .seconds(1), on: scheduler))
        scheduler.advance(by: .seconds(4))
        #expect(recorder.recordedValues == [0, 1, 2])
        recorder.dispose()
    }

    @Test func delayedValuesAreNotDeliveredAfterDisposal() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let recorder = scheduler.record(scheduler.cold("a|").signal.delay(for: .seconds(5), on: scheduler), subscribeAt: 0, disposeAt: 2)
        scheduler.run()
        #expect(recorder.events.isEmpty)
        #expect(scheduler.pendingActionCount == 0, "pending timers were cancelled")
    }

    @Test func anObserverSendingBackIntoADebouncedSourceDoesNotDeadlock() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let subscription = subject.signal.debounce(for: .seconds(1), on: scheduler).sink(value: { value in
            received.withLock { $0.append(value) }
            if value < 3 { subject.send(value + 1) }
        })
        subject.send(1)
        scheduler.run()
        #expect(received.value == [1, 2, 3])
        subscription.dispose()
    }
}

/// T-OP3, T-OP4: combining and higher-order behaviour beyond diagrams and the contract.
@Suite struct CombiningBehaviourTests {
    @Test func combineLatestCompletesAtOnceWhenAnInputCompletesEmpty() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let combined = scheduler.cold("-a-b-|").signal.combineLatest(scheduler.cold("--|").signal)
        #expect(scheduler.marbles(of: combined) { "\($0)\($1)" } == "--|")
    }

    @Test func combineLatestOfThreeToSix() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let a = scheduler.cold("a|").signal, b = scheduler.cold("b|").signal, c = scheduler.cold("c|").signal
        let d = scheduler.cold("d|").signal, e = scheduler.cold("e|").signal, f = scheduler.cold("f|").signal
        let six = a.combineLatest(b, c, d, e, f).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5].joined() }
        #expect(scheduler.marbles(of: six) == "(abcdef)|")
        let other = TestScheduler()
        defer { other.cancelAll() }
        let three = other.cold("a|").signal.combineLatest(other.cold("-b|").signal, other.cold("c|").signal) { $0 + $1 + $2 }
        #expect(other.marbles(of: three) == "-(abc)|")
    }

    @Test func emptyArraysComplete() {
        #expect(TestScheduler().marbles(of: Signal<[Int], Never>.combineLatest([Signal<Int, Never>]())) == "|")
        #expect(TestScheduler().marbles(of: Signal<[Int], Never>.zip([Signal<Int, Never>]())) == "|")
        #expect(TestScheduler().marbles(of: Signal<Int, Never>.merge([])) == "|")
        #expect(TestScheduler().marbles(of: Signal<Int, Never>.concat([])) == "|")
        #expect(TestScheduler().marbles(of: Signal<Int, Never>.race([])) == "|")
    }

    @Test func raceDisposesTheLosers() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let slow = scheduler.hot("---a-|")
        let fast = scheduler.hot("-1---2-|")
        #expect(scheduler.marbles(of: slow.signal.race(fast.signal)) == "-1---2-|")
        #expect(slow.subscriptions == ["^!"])
    }

    @Test func concatOfManySynchronousStreamsDoesNotRecurse() throws {
        let many = Signal.concat(Array(repeating: Signal<Int, Never>.just(1), count: 20_000))
        #expect(try many.reduce(0, +).blocking().toArray() == [20_000])
    }

    @Test func switchToLatestDisposesTheReplacedInner() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let first = scheduler.hot("-a-b-c-d-|")
        let second = scheduler.hot("-1-2-3-4-5-|")
        let outer = scheduler.hot("-x---y---|", values: ["x": first.signal, "y": second.signal])
        let output = outer.signal.switchToLatest()
        // At tick 5, first's c was scheduled before the outer y, so it still gets through.
        #expect(scheduler.marbles(of: output) == "---b-c-4-5-|")
        #expect(first.subscriptions == ["-^---!"])
        #expect(second.subscriptions == ["-----^-----!"])
    }

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

    @Test func zipWaitsForPartnersAndCompletesWhenOneSideIsExhausted() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let zipped = scheduler.cold("abc|").signal.zip(scheduler.cold("-1|").signal)
        #expect(scheduler.marbles(of: zipped) { $0 + $1 } == "-(a1)|")
    }

    @Test func withLatestFromIgnoresTheOtherCompletingButNotItsFailure() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let completing = scheduler.cold("-a--b|").signal.withLatestFrom(scheduler.cold("1|").signal, +)
        #expect(scheduler.marbles(of: completing) == "-(a1)--(b1)|")
        let other = TestScheduler()
        defer { other.cancelAll() }
        let failing = other.cold("-a--b|").signal.withLatestFrom(other.cold("1-#").signal, +)
        #expect(other.marbles(of: failing) == "-(a1)#")
    }
}
