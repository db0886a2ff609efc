import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-CORE1, T-CORE2: the stream type, its grammar, and cold creation.
@Suite struct SignalCreationTests {
    @Test func producerRunsOncePerSubscription() {
        let runs = Locked(0)
        let signal = Signal<Int, Never> { observer in
            let run = runs.withLock { count -> Int in
                count += 1
                return count
            }
            observer.send(run)
            observer.sendCompleted()
            return NopDisposable()
        }
        #expect(runs.withLock { $0 } == 0, "creating a signal must not run it (cold)")
        let first = Recorder<Int, Never>()
        first.subscribe(to: signal)
        let second = Recorder<Int, Never>()
        second.subscribe(to: signal)
        #expect(first.recordedValues == [1])
        #expect(second.recordedValues == [2])
        #expect(first.isCompleted && second.isCompleted)
    }

    @Test func nothingIsDeliveredAfterTheTerminalEvent() {
        let signal = Signal<Int, TestError> { observer in
            observer.send(1)
            observer.sendFailed(TestError("first"))
            observer.send(2)
            observer.sendCompleted()
            observer.sendFailed(TestError("second"))
            return NopDisposable()
        }
        let recorder = Recorder<Int, TestError>()
        recorder.subscribe(to: signal)
        #expect(recorder.elements == [.value(1), .failed(TestError("first"))])
    }

    @Test func producerResourceIsDisposedOnTerminationAndOnDisposal() {
        let cleanups = Locked(0)
        let completing = Signal<Int, Never> { observer in
            observer.sendCompleted()
            return AnyDisposable { cleanups.withLock { $0 += 1 } }
        }
        _ = completing.sink()
        #expect(cleanups.withLock { $0 } == 1)

        let endless = Signal<Int, Never> { _ in AnyDisposable { cleanups.withLock { $0 += 1 } } }
        let subscription = endless.sink()
        #expect(cleanups.withLock { $0 } == 1)
        subscription.dispose()
        subscription.dispose()
        #expect(cleanups.withLock { $0 } == 2, "disposal runs the cleanup exactly once")
    }

    @Test func valuesSentAfterDisposalAreDropped() {
        let captured = Locked<Observer<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { observer in
            captured.withLock { $0 = observer }
            return NopDisposable()
        }
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: signal)
        let observer = captured.withLock { $0 }!
        observer.send(1)
        recorder.dispose()
        observer.send(2)
        observer.sendCompleted()
        #expect(recorder.recordedValues == [1])
        #expect(recorder.completion == nil)
    }

    @Test func justEmptyNeverFail() {
        #expect(TestScheduler().marbles(of: Signal<String, Never>.just("a")) == "[a|]")
        #expect(TestScheduler().marbles(of: Signal<String, Never>.empty) == "|")
        #expect(TestScheduler().marbles(of: Signal<String, Never>.never, until: 3) == "---")
        #expect(TestScheduler().marbles(of: Signal<String, TestError>.fail(TestError())) == "#")
    }

    @Test func deferredBuildsTheStreamAtSubscriptionTime() {
        let counter = Locked(0)
        let signal = Signal<Int, Never>.deferred {
            .just(counter.withLock { $0 })
        }
        counter.withLock { $0 = 5 }
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: signal)
        #expect(recorder.recordedValues == [5])
    }

    @Test func sequenceEmitsElementsThenCompletes() throws {
        #expect(try [1, 2, 3].signal.blocking().toArray() == [1, 2, 3])
        #expect(try Signal<Int, Never>(sequence: 1...4).blocking().toArray() == [1, 2, 3, 4])
    }

    @Test func endlessSequenceIsStoppedByADownstreamPrefix() throws {
        let pulled = Locked(0)
        let counting = (1...).lazy.map { value -> Int in
            pulled.withLock { $0 += 1 }
            return value
        }
        let values = try Signal<Int, Never>(sequence: CountingSequence(base: counting)).prefix(3).blocking().toArray()
        #expect(values == [1, 2, 3])
        #expect(pulled.withLock { $0 } <= 4, "the sequence must stop as soon as prefix is done")
    }
}

/// A `Sendable` wrapper for a lazy sequence used only on the subscribing thread.
struct CountingSequence<Base: Sequence>: Sequence, @unchecked Sendable {
    // SAFETY: iterated only on the thread that subscribes, inside one test.
    let base: Base
    func makeIterator() -> Base.Iterator { base.makeIterator() }
}
