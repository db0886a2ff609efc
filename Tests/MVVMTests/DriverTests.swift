import Dispatch
import MVVM
import Signals
import SignalsTesting
import Testing

/// T-UI1: the main-actor trait.
@Suite struct DriverTests {
    @MainActor @Test func drivesOnTheMainActorAtOnceWhenAlreadyThere() {
        let subject = PublishSubject<Int, TestError>()
        let seen = Locked<[Int]>([])
        let driving = subject.signal.asDriver(onErrorJustReturn: -1).drive { value in
            // The closure is @MainActor: it may touch main-actor state directly.
            seen.withLock { $0.append(value) }
        }
        subject.send(1)
        #expect(seen.value == [1], "sent on the main thread: delivered synchronously")
        subject.sendFailed(TestError())
        #expect(seen.value == [1, -1], "a failure becomes the fallback value")
        driving.dispose()
    }

    @MainActor @Test func sharesOneSubscriptionAndReplaysTheLatestValue() {
        let subscriptions = Locked(0)
        let subject = PublishSubject<String, Never>()
        let counted = Signal<String, Never>.deferred {
            subscriptions.withLock { $0 += 1 }
            return subject.signal
        }
        let driver = counted.asDriver()
        let first = Locked<[String]>([])
        let a = driver.drive { value in first.withLock { $0.append(value) } }
        subject.send("x")
        let second = Locked<[String]>([])
        let b = driver.drive { value in second.withLock { $0.append(value) } }
        subject.send("y")
        #expect(subscriptions.value == 1)
        #expect(first.value == ["x", "y"])
        #expect(second.value == ["x", "y"], "the latest value is replayed to a new subscriber")
        a.dispose()
        b.dispose()
        #expect(subject.subscriberCount == 0)
    }

    @Test func valuesFromAnotherThreadArriveOnTheMainActor() async {
        let subject = PublishSubject<Int, Never>()
        let driver = subject.signal.asDriver()
        let holder = Locked<(any Disposable)?>(nil)
        let arrived = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Task { @MainActor in
                let once = Locked(false)
                holder.withLock { $0 = driver.drive { _ in
                    guard !once.withLock({ let first = !$0; $0 = true; return !first }) else { return }
                    continuation.resume(returning: MainScheduler.isMainThread)
                } }
                Task.detached { subject.send(1) }
            }
        }
        #expect(arrived)
        holder.withLock { $0 }?.dispose()
    }

    @MainActor @Test func driverOperatorsKeepTheTrait() {
        let property = MutableProperty(1)
        let seen = Locked<[String]>([])
        let driving = property.asDriver()
            .map { $0 * 2 }
            .filter { $0 != 4 }
            .compactMap { $0 > 100 ? nil : "\($0)" }
            .removeDuplicates()
            .drive { value in seen.withLock { $0.append(value) } }
        property.value = 2
        property.value = 3
        property.value = 3
        property.value = 500
        #expect(seen.value == ["2", "6"])
        driving.dispose()
    }

    @MainActor @Test func driveIntoAProperty() {
        let source = MutableProperty("a")
        let target = MutableProperty("")
        let driving = source.asDriver().drive(target)
        source.value = "b"
        #expect(target.value == "b")
        driving.dispose()
    }

    @MainActor @Test func recoverWithAnotherDriver() {
        let subject = PublishSubject<Int, TestError>()
        let seen = Locked<[Int]>([])
        let driving = subject.signal.asDriver { _ in .just(0) }.drive { value in seen.withLock { $0.append(value) } }
        subject.send(5)
        subject.sendFailed(TestError())
        #expect(seen.value == [5, 0])
        driving.dispose()
    }
}

/// T-UI2: bindings.
@Suite struct BindingTests {
    final class Label: LifetimeOwner, @unchecked Sendable {
        // SAFETY: each test touches a label from one thread at a time.
        var text = ""
        private let token = Lifetime.Token()
        var lifetime: Lifetime { token.lifetime }
        var textTarget: BindingTarget<String> {
            BindingTarget(lifetime: lifetime) { [weak self] in self?.text = $0 }
        }
    }

    @Test func bindsIntoATargetUntilItsLifetimeEnds() {
        let subject = PublishSubject<String, Never>()
        var label: Label? = Label()
        weak let weakLabel = label
        subject.signal.bind(to: label!.textTarget)
        subject.send("hello")
        #expect(label?.text == "hello")
        label = nil
        #expect(weakLabel == nil, "the binding does not keep the label alive")
        #expect(subject.subscriberCount == 0, "the binding ended with the label's lifetime")
    }

    @MainActor @Test func bindsIntoAKeyPathOfAnObject() {
        let subject = PublishSubject<String, Never>()
        var label: Label? = Label()
        subject.signal.bind(to: label!, \.text)
        subject.send("one")
        #expect(label?.text == "one")
        label = nil
        #expect(subject.subscriberCount == 0)
    }

    /// T-UI2: a key-path binding delivers on the main actor, in the order sent, even when values come
    /// from another thread while one is still waiting for the main queue; after it is disposed,
    /// nothing waiting is set.
    @MainActor final class Recording {
        var values: [Int] = []
        var offMain = 0
        var value = 0 {
            didSet {
                values.append(value)
                if !MainScheduler.isMainThread { offMain += 1 }
            }
        }
    }

    @MainActor @Test func bindsIntoAKeyPathInOrderFromAnyThreadAndNotAfterDisposal() async {
        let subject = PublishSubject<Int, Never>()
        let recording = Recording()
        let binding = subject.signal.bind(to: recording, \.value)
        Self.sendFromAnotherThread(1...500, to: subject)  // the main thread waits: they queue
        subject.send(501)  // on the main thread, while 1...500 still wait for it
        for _ in 0..<200 where recording.values.count < 501 { await mainQueueTurn() }
        #expect(recording.values == Array(1...501))
        #expect(recording.offMain == 0)
        // Sent from another thread, then disposed before the main queue runs them: none is set.
        Self.sendFromAnotherThread(600...610, to: subject)
        binding.dispose()
        for _ in 0..<5 { await mainQueueTurn() }
        #expect(recording.values.last == 501)
    }

    /// Sends `values` from another thread and returns when they are sent (the caller's thread,
    /// the main one, is blocked meanwhile: what they scheduled on it waits).
    nonisolated static func sendFromAnotherThread(_ values: ClosedRange<Int>, to subject: PublishSubject<Int, Never>) {
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in values { subject.send(value) }
            sent.signal()
        }
        sent.wait()
    }

    @Test func bindsIntoAPropertyWithoutKeepingItAlive() {
        let subject = PublishSubject<Int, Never>()
        var property: MutableProperty<Int>? = MutableProperty(0)
        weak let weakProperty = property
        subject.signal.bind(to: property!)
        subject.send(3)
        #expect(property?.value == 3)
        property = nil
        #expect(weakProperty == nil)
        subject.send(4)
        #expect(subject.subscriberCount == 0, "the binding ended at the first value after the property went")
    }

    @Test func bindingEndsWhenTheSourceEnds() {
        let label = Label()
        let subject = PublishSubject<String, Never>()
        let binding = subject.signal.bind(to: label.textTarget)
        subject.send("x")
        subject.sendCompleted()
        #expect(label.text == "x")
        #expect(subject.subscriberCount == 0)
        _ = binding
    }

    @Test func aViewModelAndItsViewAreReleasedWhileBindingsAreAlive() throws {
        final class ViewModel: Sendable {
            let title = MutableProperty("Flickr Search")
        }
        try withLeakTracking { tracker in
            var viewModel: ViewModel? = ViewModel()
            var label: Label? = Label()
            tracker.track(object: viewModel!, name: "view model")
            tracker.track(object: label!, name: "label")
            viewModel!.title.signal.bind(to: label!.textTarget)
            #expect(label?.text == "Flickr Search")
            label = nil
            viewModel = nil
        }
    }
}
