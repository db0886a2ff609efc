import Signals
import SignalsTesting
import Synchronization
import Testing

/// One operator under the contract every operator must keep (T-OP1, T-OP2, T-OP6, T-OP8,
/// T-CORE7 for observe/subscribe(on:)): values, completion, failure, disposal, leaks,
/// re-entrant sends and self-disposal.
struct OperatorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let apply: @Sendable (Signal<String, TestError>) -> Signal<String, TestError>
    /// A completing input and the expected output.
    let completing: (input: String, output: String)
    /// A failing input and the expected output.
    let failing: (input: String, output: String)

    var testDescription: String { name }

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
                     completing: ("-a-|", "-a-[||]"), failing: ("-a-#", "-a-[#|]")),
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
        OperatorCase(name: "retry", apply: { $0.retry(1) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a--a-#")),
        OperatorCase(name: "handleEvents", apply: { $0.handleEvents(onValue: { _ in }, onDispose: {}) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "logEvents", apply: { $0.logEvents("contract", to: { _ in }) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "observe(on:)", apply: { $0.observe(on: ImmediateScheduler.shared) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "subscribe(on:)", apply: { $0.subscribe(on: ImmediateScheduler.shared) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
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
        let source = scheduler.cold(operation.completing.input)
        #expect(scheduler.marbles(of: operation.apply(source.signal)) == operation.completing.output)
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test(arguments: OperatorCase.all)
    func forwardsOrHandlesFailure(_ operation: OperatorCase) {
        let scheduler = TestScheduler()
        let source = scheduler.cold(operation.failing.input)
        #expect(scheduler.marbles(of: operation.apply(source.signal)) == operation.failing.output)
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test(arguments: OperatorCase.all)
    func disposalEndsTheSourceSubscriptionAndDelivery(_ operation: OperatorCase) {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-d-e-f-|")
        let recorder = scheduler.record(operation.apply(source.signal), subscribeAt: 0, disposeAt: 4)
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
            let completing = scheduler.cold(operation.completing.input)
            let endless = scheduler.hot("-a-b-c-d-e-f")
            let finished = scheduler.record(tracker.track(operation.apply(completing.signal), name: "\(operation.name) completing"))
            let disposed = scheduler.record(tracker.track(operation.apply(endless.signal), name: "\(operation.name) disposed"), subscribeAt: 0, disposeAt: 3)
            scheduler.run()
            #expect(finished.completion != nil)
            _ = disposed
        }
    }

    @Test(arguments: OperatorCase.all)
    func reentrantSendIsHandledAsIfSentAfterTheCurrentValue(_ operation: OperatorCase) {
        let subject = PublishSubject<String, TestError>()
        let delivered = Recorder<String, TestError>()
        delivered.subscribe(to: subject.signal)
        let output = Recorder<String, TestError>()
        let sentBack = Locked(false)
        let subscription = operation.apply(subject.signal).subscribe(Observer(
            value: { value in
                output.observer.send(value)
                let first = sentBack.withLock { flag -> Bool in
                    defer { flag = true }
                    return !flag
                }
                if first { subject.send("z") }
            },
            completion: { output.observer.send(completion: $0) }
        ))
        for value in ["a", "b", "x", "a"] { subject.send(value) }
        subject.sendCompleted()
        subscription.dispose()

        // The same operator over the order in which the subject actually delivered.
        let expected = Recorder<String, TestError>()
        expected.subscribe(to: operation.apply(Signal(sequence: delivered.values).setFailureType(to: TestError.self)))
        #expect(output.values == expected.values, "delivered \(delivered.values)")
        #expect(output.isCompleted == expected.isCompleted)
    }

    @Test(arguments: OperatorCase.all)
    func observerDisposingItsOwnSubscriptionGetsNothingMore(_ operation: OperatorCase) {
        let subject = PublishSubject<String, TestError>()
        let received = Locked<[String]>([])
        let holder = Locked<(any Disposable)?>(nil)
        let subscription = operation.apply(subject.signal).sink(value: { value in
            received.withLock { $0.append(value) }
            holder.withLock { $0 }?.dispose()
        })
        holder.withLock { $0 = subscription }
        for value in ["a", "b", "c", "d"] { subject.send(value) }
        subject.sendCompleted()
        #expect(received.withLock { $0.count } <= 1)
        #expect(subject.subscriberCount == 0)
    }
}
