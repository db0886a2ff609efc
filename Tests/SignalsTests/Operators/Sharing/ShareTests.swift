import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Sharing/Share.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// T-OP7: share(replay:) with reference counting, multicast and refCount.

extension OperatorCase {
    /// `Share.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let shareCases: [OperatorCase] = [
        OperatorCase(name: "share", apply: { $0.share() },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "share(replay:)", apply: { $0.share(replay: 2) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct ShareTests {
    @Test func shareConnectsOnceForAllSubscribers() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-|")
        let shared = source.signal.share()
        let first = scheduler.record(shared)
        let second = scheduler.record(shared)
        scheduler.run()
        #expect(source.subscriptions.count == 1)
        #expect(first.recordedValues == ["a", "b"])
        #expect(second.recordedValues == ["a", "b"])
    }

    @Test func lastSubscriberLeavingDisconnectsAndALaterOneReconnects() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-d-e-|")
        let shared = source.signal.share()
        let first = scheduler.record(shared, subscribeAt: 0, disposeAt: 2)
        let second = scheduler.record(shared, subscribeAt: 1, disposeAt: 4)
        let third = scheduler.record(shared, subscribeAt: 6)
        scheduler.run()
        #expect(source.subscriptions == ["^---!", "------^----!"])
        #expect(first.recordedValues == ["a"])
        #expect(second.recordedValues == ["b"])
        #expect(third.recordedValues == ["d", "e"])
    }

    @Test func afterTheSourceEndsTheNextSubscriberReconnects() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-|")
        let shared = source.signal.share(replay: 1)
        let first = scheduler.record(shared)
        scheduler.run()
        let second = scheduler.record(shared)
        scheduler.run()
        #expect(first.elements == [.value("a"), .completed])
        #expect(second.elements == [.value("a"), .completed])
        #expect(source.subscriptions.count == 2)
    }

    /// Issue 28: as RxSwift's `share(replay:scope: .whileConnected)`, a subscriber that comes
    /// after the source completed subscribes to the source again; it is not handed the old
    /// completion, nor the old values, even while the first subscriber's subscription is still
    /// held (never disposed).
    @Test func aSubscriberAfterTheEndSubscribesAgainInsteadOfGettingTheOldCompletion() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-|")
        let shared = source.signal.share(replay: 2)
        let first = scheduler.record(shared, subscribeAt: 0)
        let late = scheduler.record(shared, subscribeAt: 7)
        scheduler.run()
        #expect(first.elements == [.value("a"), .value("b"), .completed])
        #expect(late.events.map { Int($0.time.sinceEpoch / .seconds(1)) } == [8, 10, 12])
        #expect(late.elements == [.value("a"), .value("b"), .completed])
        #expect(source.subscriptions == ["^----!", "-------^----!"])
    }

    @Test func multicastStartsOnConnectAndStopsOnDisconnect() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-|")
        let connectable = source.signal.multicast(PublishSubject())
        let recorder = scheduler.record(connectable.signal)
        scheduler.advance(ticks: 2)
        #expect(source.subscriptions.isEmpty)
        let connection = connectable.connect()
        scheduler.advance(ticks: 2)
        connection.dispose()
        scheduler.run()
        #expect(recorder.recordedValues == ["b"])
        #expect(source.activeSubscriptionCount == 0)
    }

    @Test func refCountConnectsWithTheFirstAndDisconnectsWithTheLast() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-|")
        let counted = source.signal.multicast(ReplaySubject(bufferSize: 1)).refCount()
        let first = scheduler.record(counted, subscribeAt: 0, disposeAt: 4)
        let second = scheduler.record(counted, subscribeAt: 2, disposeAt: 5)
        scheduler.run()
        #expect(source.subscriptions == ["^----!"])
        #expect(first.recordedValues == ["a", "b"])
        #expect(second.recordedValues == ["a", "b", "c"], "a replayed at tick 2; c arrives before its disposal at tick 5")
    }
}
