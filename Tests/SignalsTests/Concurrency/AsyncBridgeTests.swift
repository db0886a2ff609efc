import Signals
import SignalsTesting
import Testing

/// T-ASYNC1, T-ASYNC2: streams as async sequences and async work as streams, with cancellation
/// passed on in both directions.
@Suite struct AsyncBridgeTests {
    // T-ASYNC1
    @Test func forAwaitReceivesEveryValueThenEnds() async throws {
        var received: [Int] = []
        for try await value in [1, 2, 3].signal.setFailureType(to: TestError.self).values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func neverFailingStreamsIterateWithoutTry() async {
        var received: [Int] = []
        for await value in [4, 5].signal.values { received.append(value) }
        #expect(received == [4, 5])
    }

    @Test func theTypedFailureIsThrown() async {
        let failing = Signal<Int, TestError>.just(1).concat(.fail(TestError("typed")))
        var received: [Int] = []
        do {
            for try await value in failing.values { received.append(value) }
            Issue.record("expected a failure")
        } catch {
            // `error` is a TestError: the iterator throws the stream's own failure type.
            #expect(error == TestError("typed"))
        }
        #expect(received == [1])
    }

    @Test func valuesSentFasterThanTheLoopAreBufferedInOrder() async {
        let subject = PublishSubject<Int, Never>()
        var iterator = subject.signal.values.makeAsyncIterator()
        let first = Task { await iterator.next() }
        while subject.subscriberCount == 0 { await Task.yield() }
        for value in 1...5 { subject.send(value) }
        subject.sendCompleted()
        #expect(await first.value == 1)
        _ = iterator
    }

    @Test func cancellingTheIteratingTaskDisposesTheSubscription() async {
        let subject = PublishSubject<Int, Never>()
        let task = Task {
            var count = 0
            for await _ in subject.signal.values { count += 1 }
            return count
        }
        while subject.subscriberCount == 0 { await Task.yield() }
        subject.send(1)
        task.cancel()
        _ = await task.value
        #expect(subject.subscriberCount == 0)
    }

    @Test func leavingTheLoopEarlyDisposesTheSubscription() async {
        let subject = BehaviorSubject<Int, Never>(0)
        do {
            for await value in subject.signal.values where value == 0 { break }
        }
        // The iterator (and its buffer) are gone once the loop ends.
        for _ in 0..<100 where subject.subscriberCount > 0 { await Task.yield() }
        #expect(subject.subscriberCount == 0)
    }

    // T-ASYNC2
    @Test func streamFromAnAsyncSequence() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        #expect(try await Signal(stream).allValues() == [1, 2, 3])
    }

    @Test func disposingAStreamFromAnAsyncSequenceCancelsItsTask() async throws {
        let cancelled = Locked(false)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { termination in
            if case .cancelled = termination { cancelled.withLock { $0 = true } }
        }
        let received = Locked<[Int]>([])
        let subscription = Signal(stream).sink(value: { value in received.withLock { $0.append(value) } })
        continuation.yield(1)
        while received.value.isEmpty { await Task.yield() }
        subscription.dispose()
        for _ in 0..<1_000 where !cancelled.value { await Task.yield() }
        #expect(cancelled.value, "the iterating task was cancelled, so the stream was terminated")
        continuation.yield(2)
        #expect(received.value == [1])
    }

    @Test func taskEmitsItsResultOrTypedFailure() async throws {
        #expect(try await Signal<Int, TestError>.task { 42 }.allValues() == [42])
        await #expect(throws: TestError("no")) {
            try await Signal<Int, TestError>.task { () async throws(TestError) -> Int in throw TestError("no") }.allValues()
        }
    }

    @Test func disposingATaskStreamCancelsTheTask() async {
        let started = Locked(false)
        let sawCancellation = Locked(false)
        let signal = Signal<Int, Never>.task {
            started.withLock { $0 = true }
            while !Task.isCancelled { await Task.yield() }
            sawCancellation.withLock { $0 = true }
            return 0
        }
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: signal)
        while !started.value { await Task.yield() }
        recorder.dispose()
        for _ in 0..<10_000 where !sawCancellation.value { await Task.yield() }
        #expect(sawCancellation.value)
        #expect(recorder.recordedValues.isEmpty, "a result after disposal is dropped")
    }
}
