import Signals
import SignalsTesting
import Synchronization
import Testing

/// One operator under the contract every operator must keep (T-OP1, T-OP2, T-OP6, T-OP8,
/// T-CORE7 for observe/subscribe(on:)): values, completion, failure, disposal, leaks,
/// re-entrant sends and self-disposal.
struct OperatorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let applyOn: @Sendable (Signal<String, TestError>, TestScheduler) -> Signal<String, TestError>
    /// A completing input and the expected output.
    let completing: (input: String, output: String)
    /// A failing input and the expected output.
    let failing: (input: String, output: String)
    /// Whether the operator's output does not depend on time, so that a re-entrant run can be
    /// compared with a synchronous one.
    let isTimeless: Bool

    var testDescription: String { name }

    init(name: String, apply: @escaping @Sendable (Signal<String, TestError>) -> Signal<String, TestError>,
         completing: (input: String, output: String), failing: (input: String, output: String)) {
        self.name = name
        self.applyOn = { signal, _ in apply(signal) }
        self.completing = completing
        self.failing = failing
        self.isTimeless = true
    }

    init(name: String, timed apply: @escaping @Sendable (Signal<String, TestError>, TestScheduler) -> Signal<String, TestError>,
         completing: (input: String, output: String), failing: (input: String, output: String)) {
        self.name = name
        self.applyOn = apply
        self.completing = completing
        self.failing = failing
        self.isTimeless = false
    }

    /// For the checks that run without a test scheduler.
    var apply: @Sendable (Signal<String, TestError>) -> Signal<String, TestError> {
        let applyOn = self.applyOn
        return { applyOn($0, TestScheduler()) }
    }

    static let all: [OperatorCase] = [
        OperatorCase(name: "map", apply: { $0.map { $0.uppercased() } },
                     completing: ("-a-b-|", "-A-B-|"), failing: ("-a-#", "-A-#")),
        OperatorCase(name: "compactMap", apply: { $0.compactMap { $0 == "x" ? nil : $0 } },
                     completing: ("-a-x-b-|", "-a---b-|"), failing: ("-x-#", "---#")),
        OperatorCase(name: "scan", apply: { $0.scan("", +) },
                     completing: ("-a-b-c-|", "-a-(ab)-(abc)-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "reduce", apply: { $0.reduce("", +) },
                     completing: ("-a-b-|", "-----[(ab)|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "collect", apply: { $0.collect().map { $0.joined() } },
                     completing: ("-a-b-|", "-----[(ab)|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "materialize", apply: { $0.materialize().map(eventText).setFailureType(to: TestError.self) },
                     completing: ("-a-|", "-a-[(|)|]"), failing: ("-a-#", "-a-[(#)|]")),
        OperatorCase(name: "dematerialize", apply: { $0.materialize().dematerialize() },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "filter", apply: { $0.filter { $0 != "x" } },
                     completing: ("-a-x-b-|", "-a---b-|"), failing: ("-x-#", "---#")),
        OperatorCase(name: "removeDuplicates", apply: { $0.removeDuplicates() },
                     completing: ("-a-a-b-|", "-a---b-|"), failing: ("-a-a-#", "-a---#")),
        OperatorCase(name: "prefix", apply: { $0.prefix(2) },
                     completing: ("-a-b-c-|", "-a-[b|]"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "prefix(while:)", apply: { $0.prefix { $0 != "x" } },
                     completing: ("-a-x-b-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "prefix(untilOutputFrom:)", apply: { $0.prefix(untilOutputFrom: Signal<Int, Never>.never) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "dropFirst", apply: { $0.dropFirst() },
                     completing: ("-a-b-|", "---b-|"), failing: ("-a-#", "---#")),
        OperatorCase(name: "drop(while:)", apply: { $0.drop { $0 == "a" } },
                     completing: ("-a-b-a-|", "---b-a-|"), failing: ("-a-#", "---#")),
        OperatorCase(name: "drop(untilOutputFrom:)", apply: { $0.drop(untilOutputFrom: Signal<Int, Never>.just(1)) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "first", apply: { $0.first() },
                     completing: ("-a-b-|", "-[a|]"), failing: ("-#", "-#")),
        OperatorCase(name: "first(where:)", apply: { $0.first { $0 == "b" } },
                     completing: ("-a-b-|", "---[b|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "last", apply: { $0.last() },
                     completing: ("-a-b-|", "-----[b|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "ignoreValues", apply: { $0.ignoreValues(as: String.self) },
                     completing: ("-a-b-|", "-----|"), failing: ("-a-#", "---#")),
        OperatorCase(name: "take(during:)", apply: { $0.take(during: keptAlive.lifetime) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "catch", apply: { $0.catch { _ in .just("z") } },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-[z|]")),
        OperatorCase(name: "replaceError", apply: { $0.replaceError(with: "z").setFailureType(to: TestError.self) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-[z|]")),
        OperatorCase(name: "replaceErrorWithCompletion", apply: { $0.replaceErrorWithCompletion().setFailureType(to: TestError.self) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-|")),
        OperatorCase(name: "mapError", apply: { $0.mapError { _ in TestError("mapped") } },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "retry(upTo:)", apply: { $0.retry(upTo: 1) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a--a-#")),
        OperatorCase(name: "handleEvents", apply: { $0.handleEvents(onValue: { _ in }, onDispose: {}) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "logEvents", apply: { $0.logEvents("contract", to: { _ in }) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "observe(on:)", apply: { $0.observe(on: ImmediateScheduler.shared) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "subscribe(on:)", apply: { $0.subscribe(on: ImmediateScheduler.shared) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        // T-OP3
        OperatorCase(name: "combineLatest", apply: { $0.combineLatest(.just("1"), +) },
                     completing: ("-a-b-|", "-(a1)-(b1)-|"), failing: ("-a-#", "-(a1)-#")),
        OperatorCase(name: "combineLatest(array)", apply: { Signal.combineLatest([$0, .just("1")]).map { $0.joined() } },
                     completing: ("-a-b-|", "-(a1)-(b1)-|"), failing: ("-a-#", "-(a1)-#")),
        OperatorCase(name: "zip", apply: { $0.zip(Signal(sequence: ["1", "2", "3"])).map { $0 + $1 } },
                     completing: ("-a-b-|", "-(a1)-(b2)-|"), failing: ("-a-#", "-(a1)-#")),
        OperatorCase(name: "merge", apply: { $0.merge(with: .empty) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "withLatestFrom", apply: { $0.withLatestFrom(Signal<String, TestError>.just("1"), +) },
                     completing: ("-a-b-|", "-(a1)-(b1)-|"), failing: ("-a-#", "-(a1)-#")),
        OperatorCase(name: "prepend", apply: { $0.prepend("x") },
                     completing: ("-a-|", "xa-|"), failing: ("-a-#", "xa-#")),
        OperatorCase(name: "concat", apply: { $0.concat(.just("z")) },
                     completing: ("-a-|", "-a-[z|]"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "race", apply: { $0.race(.never) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        // T-OP4
        OperatorCase(name: "flatMapLatest", apply: { $0.flatMapLatest { .just($0.uppercased()) } },
                     completing: ("-a-b-|", "-A-B-|"), failing: ("-a-#", "-A-#")),
        OperatorCase(name: "flatMap", apply: { $0.flatMap { .just($0.uppercased()) } },
                     completing: ("-a-b-|", "-A-B-|"), failing: ("-a-#", "-A-#")),
        OperatorCase(name: "concatMap", apply: { $0.concatMap { Signal(sequence: [$0, $0.uppercased()]) } },
                     completing: ("-a-b-|", "-[aA]-[bB]-|"), failing: ("-a-#", "-[aA]-#")),
        // T-OP5
        OperatorCase(name: "delay", timed: { $0.delay(for: .seconds(1), on: $1) },
                     completing: ("-a-b-|", "--a-b-|"), failing: ("-a-#", "--a#")),
        OperatorCase(name: "delaySubscription", timed: { $0.delaySubscription(for: .seconds(1), on: $1) },
                     completing: ("-a-b-|", "--a-b-|"), failing: ("-a-#", "--a-#")),
        OperatorCase(name: "debounce", timed: { $0.debounce(for: .seconds(1), on: $1) },
                     completing: ("-a-b-|", "--a-b|"), failing: ("-a-#", "--a#")),
        OperatorCase(name: "throttle", timed: { $0.throttle(for: .seconds(3), on: $1) },
                     completing: ("-ab-c-|", "-a--c-|"), failing: ("-ab-#", "-a--#")),
        OperatorCase(name: "throttle(keeping: .first)", timed: { $0.throttle(for: .seconds(3), on: $1, keeping: .first) },
                     completing: ("-ab-c-|", "-a--c-|"), failing: ("-ab-#", "-a--#")),
        OperatorCase(name: "timeout", timed: { $0.timeout(for: .seconds(5), on: $1) { TestError("timeout") } },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "buffer(count:)", apply: { $0.buffer(count: 2).map { $0.joined() } },
                     completing: ("-a-b-c-|", "---(ab)---[c|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "buffer(timeSpan:)", timed: { $0.buffer(timeSpan: .seconds(2), maxCount: 5, on: $1).map { $0.joined() } },
                     completing: ("-a-b-|", "--a-b|"), failing: ("-a-#", "--a#")),
        // Issue 15: the operators RxSwift users expect
        OperatorCase(name: "element(at:)", apply: { $0.element(at: 1) },
                     completing: ("-a-b-c-|", "---[b|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "ifEmpty(default:)", apply: { $0.ifEmpty(default: "z") },
                     completing: ("---|", "---[z|]"), failing: ("-#", "-#")),
        OperatorCase(name: "ifEmpty(switchTo:)", apply: { $0.ifEmpty(switchTo: Signal(sequence: ["y", "z"])) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "take(for:on:)", timed: { $0.take(for: .seconds(4), on: $1) },
                     completing: ("-a-b-c-|", "-a-b|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "retry(when:)", apply: { $0.retry(when: { failures in
                         failures.scan(0) { count, _ in count + 1 }.setFailureType(to: TestError.self)
                             .flatMap { count in count > 1 ? .fail(TestError()) : .just(count) }
                     }) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a--a-#")),
        OperatorCase(name: "window(timeSpan:count:on:)", timed: { $0.window(timeSpan: .seconds(2), count: 5, on: $1).flatMap { $0 } },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        // T-OP7
        OperatorCase(name: "share", apply: { $0.share() },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "share(replay:)", apply: { $0.share(replay: 2) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]

    static let keptAlive = Lifetime.Token()

    @Sendable static func eventText(_ event: Event<String, TestError>) -> String {
        switch event {
        case .value(let value): return value
        case .completed: return "|"
        case .failed: return "#"
        }
    }
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
}
