import Signals
import SignalsTesting
import Synchronization
import Testing

// Cross-cutting: the contract every operator keeps, run over all of them at once. Each
// operator's cases are in its own tests file, `<Group>/<Op>Tests.swift` (for example
// `Transform/MapTests.swift` has `OperatorCase.mapCases`); only observe(on:) and subscribe(on:),
// which are not in Sources/Signals/Operators, have theirs here. The case type is in
// OperatorTestSupport.swift.

extension OperatorCase {
    /// Every operator's cases, file by file, in the order of the one list they
    /// were before issue 18 (but for drop(untilOutputFrom:), now beside prefix(untilOutputFrom:)).
    static let all: [OperatorCase] = {
        let files: [[OperatorCase]] = [
            mapCases,
            compactMapCases,
            scanCases,
            reduceCases,
            collectCases,
            materializeCases,
            filterCases,
            removeDuplicatesCases,
            prefixCases,
            prefixUntilOutputCases,
            dropFirstCases,
            firstCases,
            lastCases,
            ignoreValuesCases,
            takeDuringCases,
            catchCases,
            replaceErrorCases,
            mapErrorCases,
            retryCases,
            handleEventsCases,
            logEventsCases,
            schedulingCases,
            combineLatestCases,
            zipCases,
            mergeCases,
            withLatestFromCases,
            concatCases,
            raceCases,
            switchToLatestCases,
            flatMapCases,
            delayCases,
            delaySubscriptionCases,
            debounceCases,
            throttleCases,
            timeoutCases,
            bufferCases,
            elementAtCases,
            ifEmptyCases,
            takeForCases,
            retryWhenCases,
            windowCases,
            shareCases,
        ]
        return files.flatMap { $0 }
    }()

    /// T-CORE7: the scheduling operators (Sources/Signals/Schedulers) under the same contract.
    static let schedulingCases: [OperatorCase] = [
        OperatorCase(name: "observe(on:)", apply: { $0.observe(on: ImmediateScheduler.shared) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "subscribe(on:)", apply: { $0.subscribe(on: ImmediateScheduler.shared) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct OperatorContractTests {
    @Test(arguments: OperatorCase.all)
    func emitsValuesAndCompletion(_ operation: OperatorCase) {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold(operation.completing.input)
        #expect(scheduler.marbles(of: operation.applyOn(source.signal, scheduler)) == operation.completing.output)
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test(arguments: OperatorCase.all)
    func forwardsOrHandlesFailure(_ operation: OperatorCase) {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold(operation.failing.input)
        #expect(scheduler.marbles(of: operation.applyOn(source.signal, scheduler)) == operation.failing.output)
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test(arguments: OperatorCase.all)
    func disposalEndsTheSourceSubscriptionAndDelivery(_ operation: OperatorCase) {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-d-e-f-|")
        let recorder = scheduler.record(operation.applyOn(source.signal, scheduler), subscribeAt: 0, disposeAt: 4)
        scheduler.run()
        #expect(source.activeSubscriptionCount == 0)
        #expect(recorder.events.allSatisfy { $0.time <= SchedulerInstant(sinceEpoch: .seconds(4)) })
        // The source subscription ended at the disposal (tick 4) or earlier, if the operator
        // had already finished.
        let ended = source.subscriptions.first ?? ""
        #expect(ended.hasSuffix("!") || ended.hasSuffix("[^!]"))
        #expect(ended.count <= 5)
    }

    @Test(arguments: OperatorCase.all)
    func releasesEverySubscriptionWhenDisposedOrEnded(_ operation: OperatorCase) throws {
        try withLeakTracking { tracker in
            let scheduler = TestScheduler()
            defer { scheduler.cancelAll() }
            let completing = scheduler.cold(operation.completing.input)
            let endless = scheduler.hot("-a-b-c-d-e-f")
            let finished = scheduler.record(tracker.track(operation.applyOn(completing.signal, scheduler), name: "\(operation.name) completing"))
            let disposed = scheduler.record(tracker.track(operation.applyOn(endless.signal, scheduler), name: "\(operation.name) disposed"), subscribeAt: 0, disposeAt: 3)
            scheduler.run()
            #expect(finished.completion != nil)
            _ = disposed
        }
    }

    @Test(arguments: OperatorCase.all.filter(\.isTimeless))
    func reentrantSendIsHandledAsIfSentAfterTheCurrentValue(_ operation: OperatorCase) {
        let subject = PublishSubject<String, TestError>()
        let delivered = Recorder<String, TestError>()
        delivered.subscribe(to: subject.signal)
        let output = Recorder<String, TestError>()
        let sentBack = Locked(false)
        let subscribed = Locked(false)
        let subscription = operation.apply(subject.signal).subscribe(Observer(
            value: { value in
                output.observer.send(value)
                // Values delivered inside `subscribe` (prepend's) come before the chain listens
                // to the subject; send back from the first value after that.
                guard subscribed.value else { return }
                let first = sentBack.withLock { flag -> Bool in
                    defer { flag = true }
                    return !flag
                }
                if first { subject.send("z") }
            },
            completion: { output.observer.send(completion: $0) }
        ))
        subscribed.withLock { $0 = true }
        for value in ["a", "b", "x", "a"] { subject.send(value) }
        subject.sendCompleted()
        subscription.dispose()

        // The same operator, fed the order in which the subject actually delivered, one send at
        // a time with nobody sending back.
        let reference = PublishSubject<String, TestError>()
        let expected = Recorder<String, TestError>()
        expected.subscribe(to: operation.apply(reference.signal))
        for value in delivered.recordedValues { reference.send(value) }
        reference.sendCompleted()
        expected.dispose()
        #expect(output.recordedValues == expected.recordedValues, "delivered \(delivered.recordedValues)")
        #expect(output.isCompleted == expected.isCompleted)
    }

    @Test(arguments: OperatorCase.all)
    func observerDisposingItsOwnSubscriptionGetsNothingMore(_ operation: OperatorCase) {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<String, TestError>()
        // Values delivered during `subscribe` arrive before the observer holds its disposable;
        // from the first value after that, the observer disposes and must get nothing more.
        let afterDisposal = Locked<[String]>([])
        let disposed = Locked(false)
        let holder = Locked<(any Disposable)?>(nil)
        let subscription = operation.applyOn(subject.signal, scheduler).sink(value: { value in
            if disposed.value { afterDisposal.withLock { $0.append(value) } }
            if let own = holder.value {
                disposed.withLock { $0 = true }
                own.dispose()
            }
        })
        holder.withLock { $0 = subscription }
        for value in ["a", "b", "c", "d"] {
            subject.send(value)
            scheduler.advance(by: .seconds(10))
        }
        subject.sendCompleted()
        scheduler.run()
        #expect(afterDisposal.value.isEmpty)
        #expect(subject.subscriberCount == 0)
    }

    /// T-OP3: the array forms of the combining operators, with no input, complete at once.
    @Test func emptyArraysComplete() {
        #expect(TestScheduler().marbles(of: Signal<[Int], Never>.combineLatest([Signal<Int, Never>]())) == "|")
        #expect(TestScheduler().marbles(of: Signal<[Int], Never>.zip([Signal<Int, Never>]())) == "|")
        #expect(TestScheduler().marbles(of: Signal<Int, Never>.merge([])) == "|")
        #expect(TestScheduler().marbles(of: Signal<Int, Never>.concat([])) == "|")
        #expect(TestScheduler().marbles(of: Signal<Int, Never>.race([])) == "|")
    }
}
