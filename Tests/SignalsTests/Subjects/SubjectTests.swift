import Foundation
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


/// T-CORE4: what a released subject keeps alive. Nothing can send into a subject once it and
/// every signal and observer taken from it are released, so its subscribers' observers (and what
/// they capture: often a view model) must be released then, as RxSwift's are, even where a
/// subscription was never disposed or is still held.
@Suite struct SubjectLifetimeTests {
    final class Capture: Sendable {}

    /// Subscribes an observer capturing a fresh object to the subject `make` returns, through
    /// `subscribe`, drops the subject, and returns the object (weakly) and the subscription.
    static func subscribeAndRelease<Subject: AnyObject>(
        _ make: () -> Subject,
        subscribe: (Subject, Capture) -> any Disposable
    ) -> (capture: () -> Capture?, subscription: any Disposable, subject: () -> Subject?) {
        weak var weakCapture: Capture?
        weak var weakSubject: Subject?
        let subscription: any Disposable
        do {
            let capture = Capture()
            weakCapture = capture
            let subject = make()
            weakSubject = subject
            subscription = subscribe(subject, capture)
        }
        return ({ weakCapture }, subscription, { weakSubject })
    }

    @Test func aReleasedSubjectReleasesTheObserversOfSubscriptionsNeverDisposed() {
        let publish = Self.subscribeAndRelease({ PublishSubject<Int, Never>() }) { subject, capture in
            subject.signal.sink(value: { _ in _ = capture })
        }
        let behavior = Self.subscribeAndRelease({ BehaviorSubject<Int, Never>(0) }) { subject, capture in
            subject.signal.map { $0 + 1 }.sink(value: { _ in _ = capture })
        }
        let replay = Self.subscribeAndRelease({ ReplaySubject<Int, Never>(bufferSize: 2) }) { subject, capture in
            subject.signal.filter { $0 > 0 }.sink(value: { _ in _ = capture })
        }
        let property = Self.subscribeAndRelease({ MutableProperty(0) }) { property, capture in
            property.signal.sink(value: { _ in _ = capture })
        }
        for (name, released) in [("publish", publish), ("behavior", behavior), ("replay", replay)] as [(String, (capture: () -> Capture?, subscription: any Disposable, subject: () -> AnyObject?))] {
            #expect(released.subject() == nil, "\(name): the subject object itself is freed")
            #expect(released.capture() == nil, "\(name): the observer's capture is freed with the subject, though its subscription is still held")
            released.subscription.dispose()
        }
        #expect(property.subject() == nil)
        #expect(property.capture() == nil, "a mutable property's observers are released with it")
        property.subscription.dispose()
    }

    @Test func aSubjectKeptBySignalOrObserverKeepsItsSubscribers() {
        let recorder = Recorder<Int, Never>()
        var observer: Observer<Int, Never>?
        var signal: Signal<Int, Never>?
        weak var weakSubject: PublishSubject<Int, Never>?
        do {
            let subject = PublishSubject<Int, Never>()
            weakSubject = subject
            recorder.subscribe(to: subject.signal)
            observer = subject.observer
            signal = subject.signal
        }
        #expect(weakSubject != nil, "its observer and signal keep the subject")
        observer?.send(1)
        observer = nil
        #expect(weakSubject != nil, "its signal keeps it: a later subscriber could still come")
        #expect(recorder.recordedValues == [1])
        let late = Recorder<Int, Never>()
        late.subscribe(to: signal!)
        signal = nil
        #expect(weakSubject == nil)
        #expect(recorder.recordedValues == [1] && late.recordedValues.isEmpty)
        #expect(recorder.elements == [.value(1)], "released, not completed")
    }

    /// The subscription a subscriber holds is the subject's own record of it: once it ends, in
    /// any of the four ways, holding it must keep nothing of its observer alive.
    @Test func aHeldSubscriptionThatEndedKeepsNothingOfItsObserver() {
        func check(_ name: String, _ end: (PublishSubject<Int, Never>, any Disposable) -> Void, subscribe: ((PublishSubject<Int, Never>, Capture) -> any Disposable)? = nil) {
            let subject = PublishSubject<Int, Never>()
            weak var weakCapture: Capture?
            let subscription: any Disposable
            do {
                let capture = Capture()
                weakCapture = capture
                subscription = subscribe?(subject, capture) ?? subject.signal.sink(value: { _ in _ = capture })
            }
            if subscribe == nil { #expect(weakCapture != nil, "\(name): alive while subscribed") }
            end(subject, subscription)
            #expect(weakCapture == nil, "\(name): the held subscription still keeps the observer's capture")
            withExtendedLifetime(subscription) {}
        }
        check("disposed") { _, subscription in subscription.dispose() }
        check("completed") { subject, _ in subject.sendCompleted() }
        check("subscribed after completion", { _, _ in }, subscribe: { subject, capture in
            subject.sendCompleted()
            return subject.signal.sink(value: { _ in _ = capture })
        })
        check("disposed before its queued subscription was attached", { _, _ in }, subscribe: { subject, capture in
            // Subscribing from inside a delivery queues the attachment behind it; disposing at
            // once marks the subscription first, so the attachment finds it disposed.
            let inner = Locked<(any Disposable)?>(nil)
            let outer = subject.signal.sink(value: { _ in
                let subscription = subject.signal.sink(value: { _ in _ = capture })
                subscription.dispose()
                inner.withLock { $0 = subscription }
            })
            subject.send(0)
            outer.dispose()
            return inner.withLock { $0! }
        })
    }

    @Test func aHeldSubscriptionOfAReleasedSubjectDisposesQuietly() {
        var subject: PublishSubject<Int, Never>? = PublishSubject()
        let recorder = Recorder<Int, Never>()
        let subscription = subject!.signal.sink(value: { recorder.observer.send($0) })
        subject?.send(1)
        subject = nil
        subscription.dispose()
        subscription.dispose()
        #expect(recorder.recordedValues == [1])
    }

    /// Threads hold the only references to a subject (copies of its observer), send through
    /// them at the same time and drop them at random moments; whichever drops the last one
    /// releases the subscribers, possibly while another thread's delivery is still draining.
    /// Every value is delivered, and the observer's capture is released at the end.
    @Test func aSubjectReleasedByTheLastOfSeveralSendingThreadsDeliversEverythingThenReleases() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let received = Atomic<Int>(0)
            weak var weakCapture: Capture?
            var workers: [Worker] = []
            let threads = 3
            let sends = (0..<threads).map { _ in Int.random(in: 1...200, using: &generator) }
            do {
                let capture = Capture()
                weakCapture = capture
                let subject = PublishSubject<Int, Never>()
                _ = subject.signal.sink(value: { _ in
                    _ = capture
                    received.add(1, ordering: .relaxed)
                })
                for thread in 0..<threads {
                    // The thread drops its copy itself: a finished thread's closure may outlive
                    // `join` for a moment.
                    let held = Locked<Observer<Int, Never>?>(subject.observer)
                    let count = sends[thread]
                    workers.append(Worker {
                        let observer = held.withLock { $0! }
                        for value in 0..<count { observer.send(value) }
                        held.withLock { $0 = nil }
                    })
                }
            }
            for worker in workers { worker.join() }
            workers.removeAll()
            #expect(received.load(ordering: .relaxed) == sends.reduce(0, +))
            #expect(weakCapture == nil, "released once the last observer copy went")
        }
    }

    @Test func aSubjectReleasedFromInsideItsOwnDeliveryDeliversWhatWasQueuedFirst() {
        final class Holder: @unchecked Sendable { var subject: PublishSubject<Int, Never>? }
        let holder = Holder()
        holder.subject = PublishSubject()
        let received = Locked<[Int]>([])
        weak var weakCapture: Capture?
        do {
            let capture = Capture()
            weakCapture = capture
            _ = holder.subject!.signal.sink(value: { value in
                _ = capture
                received.withLock { $0.append(value) }
                if value == 1 {
                    // Re-entrant: queued behind this delivery, then the last reference goes.
                    let subject = holder.subject
                    holder.subject = nil
                    subject?.send(2)
                }
            })
        }
        holder.subject?.send(1)
        #expect(received.withLock { $0 } == [1, 2])
        #expect(holder.subject == nil)
        #expect(weakCapture == nil)
    }
}
