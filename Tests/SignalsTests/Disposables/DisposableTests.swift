import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-CORE3: disposables, bags, lifetimes.
@Suite struct DisposableTests {
    @Test func anyDisposableRunsOnceAndReleasesItsClosure() {
        let count = Locked(0)
        weak var weakCapture: Capture?
        let disposable: AnyDisposable
        do {
            let capture = Capture()
            weakCapture = capture
            disposable = AnyDisposable { withExtendedLifetime(capture) { count.withLock { $0 += 1 } } }
        }
        #expect(weakCapture != nil)
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(count.withLock { $0 } == 1)
        #expect(disposable.isDisposed)
        #expect(weakCapture == nil, "the closure and what it captured are released after running")
    }

    @Test func compositeDisposesAllInOrderAndLateAdditionsAtOnce() {
        let log = Locked<[Int]>([])
        let composite = CompositeDisposable()
        composite.add { log.withLock { $0.append(1) } }
        composite += AnyDisposable { log.withLock { $0.append(2) } }
        #expect(composite.count == 2)
        composite.dispose()
        #expect(log.withLock { $0 } == [1, 2])
        composite.add { log.withLock { $0.append(3) } }
        #expect(log.withLock { $0 } == [1, 2, 3])
        #expect(composite.isDisposed)
    }

    @Test func serialDisposesThePreviousOnReplacementAndLateOnesAtOnce() {
        let log = Locked<[String]>([])
        let serial = SerialDisposable()
        serial.inner = AnyDisposable { log.withLock { $0.append("first") } }
        serial.inner = AnyDisposable { log.withLock { $0.append("second") } }
        #expect(log.withLock { $0 } == ["first"])
        serial.dispose()
        #expect(log.withLock { $0 } == ["first", "second"])
        serial.inner = AnyDisposable { log.withLock { $0.append("late") } }
        #expect(log.withLock { $0 } == ["first", "second", "late"])
    }

    @Test func bagDisposesOnDeinit() {
        let subject = PublishSubject<Int, Never>()
        let received = Locked<[Int]>([])
        do {
            let bag = DisposeBag()
            subject.signal.sink(value: { value in received.withLock { $0.append(value) } }).disposed(by: bag)
            subject.send(1)
            #expect(subject.subscriberCount == 1)
        }
        subject.send(2)
        #expect(received.withLock { $0 } == [1])
        #expect(subject.subscriberCount == 0)
    }

    @Test func bagDisposeNowAndInsertAfterwards() {
        let bag = DisposeBag()
        let flag = AnyDisposable()
        bag.insert(flag)
        #expect(bag.count == 1)
        bag.dispose()
        #expect(flag.isDisposed)
        let late = AnyDisposable()
        bag.insert(late)
        #expect(late.isDisposed)
    }

    @Test func lifetimeEndsWhenItsTokenGoes() {
        let ended = Locked(0)
        var token: Lifetime.Token? = Lifetime.Token()
        let lifetime = token!.lifetime
        lifetime.observeEnded { ended.withLock { $0 += 1 } }
        let cancelled = lifetime.observeEnded { ended.withLock { $0 += 100 } }
        cancelled.dispose()
        #expect(!lifetime.hasEnded)
        token = nil
        #expect(lifetime.hasEnded)
        #expect(ended.withLock { $0 } == 1)
        lifetime.observeEnded { ended.withLock { $0 += 10 } }
        #expect(ended.withLock { $0 } == 11, "observing an ended lifetime runs at once")
        _ = token
    }

    @Test func takeDuringCompletesWhenTheOwnerGoes() {
        let subject = PublishSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        var owner: Owner? = Owner()
        recorder.subscribe(to: subject.signal.take(during: owner!.lifetime))
        subject.send(1)
        owner = nil
        subject.send(2)
        #expect(recorder.recordedValues == [1])
        #expect(recorder.isCompleted)
        #expect(subject.subscriberCount == 0)
        _ = owner
    }

    @Test func takeDuringAnEndedLifetimeNeverSubscribes() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.take(during: .ended)) == "|")
        #expect(source.subscriptions.isEmpty)
    }

    final class Capture: Sendable {}

    final class Owner: Sendable {
        private let token = Lifetime.Token()
        var lifetime: Lifetime { token.lifetime }
    }
}
