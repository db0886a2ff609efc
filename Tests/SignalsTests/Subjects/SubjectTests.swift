import PropertyBased
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-CORE4: publish, behaviour and replay subjects.
@Suite struct SubjectTests {
    @Test func publishDeliversOnlyLaterValuesAndTerminalToLateSubscribers() {
        let subject = PublishSubject<Int, TestError>()
        subject.send(1)
        let early = Recorder<Int, TestError>()
        early.subscribe(to: subject.signal)
        subject.send(2)
        subject.sendFailed(TestError("boom"))
        subject.send(3)
        let late = Recorder<Int, TestError>()
        late.subscribe(to: subject.signal)
        #expect(early.elements == [.value(2), .failed(TestError("boom"))])
        #expect(late.elements == [.failed(TestError("boom"))])
        #expect(subject.subscriberCount == 0)
    }

    @Test func behaviorGivesCurrentValueFirstAndTracksValue() {
        let subject = BehaviorSubject<Int, Never>(1)
        #expect(subject.value == 1)
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: subject.signal)
        subject.send(2)
        #expect(subject.value == 2)
        let late = Recorder<Int, Never>()
        late.subscribe(to: subject.signal)
        let returned = subject.modify { value -> String in
            value += 10
            return "done"
        }
        #expect(returned == "done")
        #expect(recorder.recordedValues == [1, 2, 12])
        #expect(late.recordedValues == [2, 12])
        subject.sendCompleted()
        subject.send(99)
        #expect(subject.value == 12, "sends after completion are ignored")
        let afterEnd = Recorder<Int, Never>()
        afterEnd.subscribe(to: subject.signal)
        #expect(afterEnd.elements == [.completed])
    }

    @Test func behaviorValueIsUpdatedBeforeAReentrantDelivery() {
        let subject = BehaviorSubject<Int, Never>(0)
        let seen = Locked<[String]>([])
        let subscription = subject.signal.sink(value: { value in
            if value == 1 {
                subject.send(2)
                seen.withLock { $0.append("value read inside: \(subject.value)") }
            }
            seen.withLock { $0.append("got \(value)") }
        })
        subject.send(1)
        #expect(seen.withLock { $0 } == ["got 0", "value read inside: 2", "got 1", "got 2"])
        subscription.dispose()
    }

    @Test func replayReplaysTheLatestValuesAndThenTheTerminal() {
        let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
        for value in 1...4 { subject.send(value) }
        let recorder = Recorder<Int, TestError>()
        recorder.subscribe(to: subject.signal)
        subject.send(5)
        subject.sendCompleted()
        let late = Recorder<Int, TestError>()
        late.subscribe(to: subject.signal)
        #expect(recorder.recordedValues == [3, 4, 5])
        #expect(late.elements == [.value(4), .value(5), .completed])
    }

    @Test func anObserverDisposingAnotherDuringDeliveryStopsIt() {
        let subject = PublishSubject<Int, Never>()
        let second = Recorder<Int, Never>()
        let secondSubscription = Locked<(any Disposable)?>(nil)
        let first = subject.signal.sink(value: { _ in secondSubscription.withLock { $0 }?.dispose() })
        secondSubscription.withLock { $0 = subject.signal.subscribe(second.observer) }
        subject.send(1)
        #expect(second.recordedValues.isEmpty, "disposed during the same delivery: must not receive it")
        first.dispose()
    }

    @Test func reentrantSubscribeFromAnObserverDoesNotDeadlockAndStartsAfterTheValue() {
        let subject = BehaviorSubject<Int, Never>(0)
        let inner = Recorder<Int, Never>()
        let subscribed = Locked(false)
        let outer = subject.signal.sink(value: { value in
            if value == 1 && !subscribed.withLock({ $0 }) {
                subscribed.withLock { $0 = true }
                inner.subscribe(to: subject.signal)
            }
        })
        subject.send(1)
        subject.send(2)
        #expect(inner.recordedValues == [1, 2])
        outer.dispose()
        inner.dispose()
        #expect(subject.subscriberCount == 0)
    }

    @Test func disposingSubscribersInAnyOrderKeepsTheOthers() {
        let subject = PublishSubject<Int, Never>()
        let recorders = (0..<6).map { _ in Recorder<Int, Never>() }
        for recorder in recorders { recorder.subscribe(to: subject.signal) }
        subject.send(1)
        recorders[2].dispose()
        recorders[0].dispose()
        recorders[4].dispose()
        subject.send(2)
        #expect(recorders.map(\.recordedValues) == [[1], [1, 2], [1], [1, 2], [1], [1, 2]])
        #expect(subject.subscriberCount == 3)
        recorders[5].dispose()
        recorders[1].dispose()
        subject.send(3)
        #expect(recorders[3].recordedValues == [1, 2, 3])
        recorders[3].dispose()
        #expect(subject.subscriberCount == 0)
    }

    @Test func subjectObserverForwardsAStreamIntoTheSubject() {
        let subject = PublishSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: subject.signal)
        _ = [1, 2].signal.subscribe(subject.observer)
        #expect(recorder.elements == [.value(1), .value(2), .completed])
    }
}

/// T-G4: subscribing and disposing cost O(1) at any number of subscribers (a removed slot is a
/// hole, squeezed out later), and delivery order stays subscription order whatever the order of
/// subscribes and disposes. Generated sequences of operations, shrunk on failure.
@Suite struct SubscriberOrderTests {
    @Test func deliveryOrderIsSubscriptionOrderAfterAnySubscribesAndDisposes() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...99).array(of: 0...300)) { operations in
            let subject = PublishSubject<Int, Never>()
            let log = Locked<[Int]>([])
            var live: [(id: Int, subscription: any Disposable)] = []
            for (id, operation) in operations.enumerated() {
                if operation < 45 || live.isEmpty {
                    live.append((id, subject.signal.sink { _ in log.withLock { $0.append(id) } }))
                } else {
                    // Dispose one: often the newest (the common subscribe-then-dispose), else any.
                    let index = operation < 60 ? live.count - 1 : operation % live.count
                    live.remove(at: index).subscription.dispose()
                }
                if operation % 5 == 0 {
                    log.withLock { $0.removeAll() }
                    subject.send(id)
                    #expect(log.value == live.map(\.id), "after \(id + 1) operations")
                    #expect(subject.subscriberCount == live.count)
                }
            }
            log.withLock { $0.removeAll() }
            subject.send(-1)
            #expect(log.value == live.map(\.id))
            live.forEach { $0.subscription.dispose() }
            #expect(subject.subscriberCount == 0)
        }
    }

    /// Disposing the oldest of many subscriptions, and then every other one, keeps the order and
    /// leaves no subscriber behind (the compaction path).
    @Test func manySubscribersDisposedFromTheFrontAndTheMiddleKeepTheirOrder() {
        let subject = PublishSubject<Int, Never>()
        let log = Locked<[Int]>([])
        var live = (0..<10_000).map { id in (id, subject.signal.sink { _ in log.withLock { $0.append(id) } }) }
        for index in stride(from: live.count - 1, through: 0, by: -2) { live.remove(at: index).1.dispose() }
        live.removeFirst().1.dispose()
        subject.send(0)
        #expect(log.value == live.map(\.0))
        live.forEach { $0.1.dispose() }
        #expect(subject.subscriberCount == 0)
    }
}

