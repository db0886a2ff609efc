import Dispatch
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-TEST4: await or block for the first value, all values, or completion.
@Suite struct AwaitAndBlockingTests {
    @Test func blockingWaitsForValuesFromAnotherThread() throws {
        let scheduler = SerialQueueScheduler(label: "blocking")
        let signal = [1, 2, 3].signal.observe(on: scheduler)
        #expect(try signal.blocking().first() == 1)
        #expect(try signal.blocking().last() == 3)
        #expect(try signal.blocking().toArray() == [1, 2, 3])
    }

    @Test func blockingThrowsTheFailureAndMaterializes() throws {
        let failing = Signal<Int, TestError>.fail(TestError("bad"))
        #expect(throws: TestError("bad")) { try failing.blocking().toArray() }
        guard case .failed(let values, let error) = try failing.blocking().materialize() else {
            Issue.record("expected a failure")
            return
        }
        #expect(values.isEmpty)
        #expect(error == TestError("bad"))
    }

    @Test func blockingTimesOutOnAStreamThatNeverEnds() {
        #expect(throws: BlockingError.timedOut(after: .milliseconds(20))) {
            try Signal<Int, Never>.never.blocking(timeout: .milliseconds(20)).toArray()
        }
    }

    @Test func awaitFirstAllAndCompletion() async throws {
        let scheduler = SerialQueueScheduler(label: "await")
        let signal = [1, 2, 3].signal.observe(on: scheduler)
        #expect(try await signal.firstValue() == 1)
        #expect(try await signal.allValues() == [1, 2, 3])
        try await signal.awaitCompletion()
        await #expect(throws: TestError("x")) { try await Signal<Int, TestError>.fail(TestError("x")).allValues() }
        #expect(try await Signal<Int, Never>.empty.firstValue() == nil)
    }

    @Test func cancellingTheAwaitingTaskDisposesTheSubscription() async throws {
        let subject = PublishSubject<Int, Never>()
        let task = Task { try await subject.signal.allValues() }
        while subject.subscriberCount == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(subject.subscriberCount == 0)
    }
}

/// T-TEST5: leak checks.
@Suite struct LeakTrackerTests {
    @Test func reportsASubscriptionThatWasNeverDisposed() {
        let tracker = LeakTracker()
        let subject = PublishSubject<Int, Never>()
        let subscription = tracker.track(subject.signal, name: "forgotten").sink()
        #expect(tracker.leaks.count == 1)
        #expect(tracker.leaks.first?.contains("forgotten") == true)
        #expect(throws: LeakError.self) { try tracker.verify() }
        subscription.dispose()
        #expect(tracker.leaks.isEmpty)
    }

    @Test func aCompletedSubscriptionIsNotALeakEvenIfItsDisposableIsKept() throws {
        let tracker = LeakTracker()
        let subject = PublishSubject<Int, Never>()
        let subscription = tracker.track(subject.signal, name: "finished").sink()
        subject.sendCompleted()
        try tracker.verify()
        _ = subscription
    }

    @Test func reportsAnObjectKeptAliveByACycle() {
        final class Node: Sendable {
            let property = MutableProperty<Node?>(nil)
        }
        let tracker = LeakTracker()
        let breakCycle: @Sendable () -> Void
        do {
            let node = Node()
            node.property.value = node
            tracker.track(object: node, name: "view model")
            breakCycle = { [weak node] in node?.property.value = nil }
        }
        #expect(tracker.leaks == ["object 'view model' is still alive"])
        // Mend the cycle the test made on purpose, so the suite itself leaks nothing.
        breakCycle()
        #expect(tracker.leaks.isEmpty)
    }

    @Test func withLeakTrackingThrowsWhenSomethingIsLeftBehind() {
        let subject = PublishSubject<Int, Never>()
        let kept = Locked<(any Disposable)?>(nil)
        #expect(throws: LeakError.self) {
            try withLeakTracking { tracker in
                kept.withLock { $0 = tracker.track(subject.signal).sink() }
            }
        }
        kept.withLock { $0?.dispose() }
    }
}

/// T-TEST6: the kit works with Swift Testing running tests in parallel (no shared state).
@Suite struct ParallelUseTests {
    @Test(arguments: 0..<64)
    func independentSchedulersDoNotInterfere(_ seed: Int) {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold(String(repeating: "-", count: seed % 5) + "a-b-|")
        let expected = String(repeating: "-", count: seed % 5) + "A-B-|"
        #expect(scheduler.marbles(of: source.signal.map { $0.uppercased() }) == expected)
        #expect(scheduler.activeSubscriptions.isEmpty)
    }
}
