import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-CORE6: sends from several threads are serialized; the grammar holds; nothing is lost or
/// duplicated; no observer runs under a toolkit lock. `.ci/run` also runs this suite under the
/// thread sanitizer.
@Suite struct ConcurrencyStressTests {
    static let threads = 4
    static let perThread = 2_000

    @Test func concurrentSendsAreSerializedLosslessAndInPerSenderOrder() {
        let subject = PublishSubject<Int, Never>()
        let checker = GrammarChecker<Int, Never>()
        let subscription = subject.signal.subscribe(checker.observer)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread { subject.send(thread * 1_000_000 + index) }
        }
        subject.sendCompleted()
        subscription.dispose()

        let values = checker.values
        #expect(checker.violations.isEmpty, "\(checker.violations.prefix(3))")
        #expect(values.count == Self.threads * Self.perThread)
        #expect(Set(values).count == values.count, "no duplicates")
        for thread in 0..<Self.threads {
            let own = values.filter { $0 / 1_000_000 == thread }
            #expect(own == own.sorted(), "thread \(thread)'s values arrive in the order it sent them")
        }
        #expect(checker.completions == 1)
    }

    @Test func completionRacingWithSendsEndsEveryObserverCleanly() {
        for _ in 0..<20 {
            let subject = PublishSubject<Int, TestError>()
            let checkers = (0..<4).map { _ in GrammarChecker<Int, TestError>() }
            let subscriptions = checkers.map { subject.signal.subscribe($0.observer) }
            DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
                if thread == Self.threads {
                    subject.sendFailed(TestError("stop"))
                } else {
                    for index in 0..<200 { subject.send(index) }
                }
            }
            for checker in checkers {
                #expect(checker.violations.isEmpty, "\(checker.violations.prefix(3))")
                #expect(checker.completions == 1)
            }
            subscriptions.forEach { $0.dispose() }
            #expect(subject.subscriberCount == 0)
        }
    }

    @Test func subscribeAndDisposeConcurrentlyWithSends() {
        let subject = PublishSubject<Int, Never>()
        let stop = Atomic<Bool>(false)
        let checkers = Locked<[GrammarChecker<Int, Never>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread < 2 {
                for index in 0..<Self.perThread { subject.send(index) }
                stop.store(true, ordering: .releasing)
            } else {
                var rounds = 0
                while !stop.load(ordering: .acquiring) || rounds < 50 {
                    let checker = GrammarChecker<Int, Never>()
                    checkers.withLock { $0.append(checker) }
                    let subscription = subject.signal.subscribe(checker.observer)
                    subscription.dispose()
                    rounds += 1
                }
            }
        }
        #expect(subject.subscriberCount == 0, "every disposed subscription was detached")
        for checker in checkers.withLock({ $0 }) {
            #expect(checker.violations.isEmpty)
        }
    }

    @Test func behaviorValueAgreesWithTheLastDeliveredValue() {
        for _ in 0..<20 {
            let subject = BehaviorSubject<Int, Never>(-1)
            let checker = GrammarChecker<Int, Never>()
            let subscription = subject.signal.subscribe(checker.observer)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<250 { subject.send(thread * 1_000 + index) }
            }
            #expect(checker.values.last == subject.value, "observers saw values in the order `value` took them")
            #expect(checker.values.count == Self.threads * 250 + 1)
            #expect(checker.violations.isEmpty)
            subscription.dispose()
        }
    }

    @Test func producerObserverSerializesConcurrentSenders() {
        let signal = Signal<Int, Never> { observer in
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<500 { observer.send(thread * 1_000 + index) }
            }
            observer.sendCompleted()
            observer.send(-1)
            return NopDisposable()
        }
        let checker = GrammarChecker<Int, Never>()
        _ = signal.subscribe(checker.observer)
        #expect(checker.violations.isEmpty, "\(checker.violations.prefix(3))")
        #expect(checker.values.count == Self.threads * 500)
        #expect(checker.completions == 1)
    }

    @Test func observersSendingBackWhileOthersSendNeverDeadlock() {
        let subject = PublishSubject<Int, Never>()
        let echoes = Atomic<Int>(0)
        let echo = subject.signal.sink(value: { value in
            if value >= 0 {
                echoes.add(1, ordering: .relaxed)
                subject.send(-value - 1)
            }
        })
        let checker = GrammarChecker<Int, Never>()
        let check = subject.signal.subscribe(checker.observer)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<500 { subject.send(thread * 1_000 + index) }
        }
        #expect(echoes.load(ordering: .relaxed) == Self.threads * 500)
        #expect(checker.values.count == Self.threads * 500 * 2, "every value and every echo delivered")
        #expect(checker.violations.isEmpty)
        echo.dispose()
        check.dispose()
    }

    @Test func operatorChainsUnderConcurrentSends() {
        let subject = PublishSubject<Int, Never>()
        let checker = GrammarChecker<Int, Never>()
        let subscription = subject.signal
            .map { $0 * 2 }
            .filter { $0 % 4 == 0 }
            .scan(0) { count, _ in count + 1 }
            .removeDuplicates()
            .subscribe(checker.observer)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for index in 0..<Self.perThread { subject.send(index) }
        }
        #expect(checker.violations.isEmpty)
        #expect(checker.values == Array(1...(Self.threads * Self.perThread / 2)), "scan counted every even value once, in order")
        subscription.dispose()
    }

    @Test func mutablePropertyConcurrentModifyLosesNoUpdate() {
        let property = MutableProperty(0)
        let checker = GrammarChecker<Int, Never>()
        let subscription = property.signal.subscribe(checker.observer)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<500 { property.modify { $0 += 1 } }
        }
        #expect(property.value == Self.threads * 500)
        #expect(checker.values == Array(0...(Self.threads * 500)), "each update observed once, in order")
        subscription.dispose()
    }
}

/// Observes a subscription and records any break of the event grammar: overlapping calls, a
/// value or second terminal event after the first terminal event.
final class GrammarChecker<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var values: [Value] = []
        var completions = 0
        var violations: [String] = []
    }

    private let inside = Atomic<Int>(0)
    private let state = Locked(State())

    var observer: Observer<Value, Failure> {
        Observer(
            value: { [self] value in
                enter()
                state.withLock { state in
                    if state.completions > 0 { state.violations.append("value \(value) after the terminal event") }
                    state.values.append(value)
                }
                leave()
            },
            completion: { [self] _ in
                enter()
                state.withLock { state in
                    if state.completions > 0 { state.violations.append("second terminal event") }
                    state.completions += 1
                }
                leave()
            }
        )
    }

    private func enter() {
        if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            state.withLock { $0.violations.append("overlapping observer calls") }
        }
    }

    private func leave() {
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    var values: [Value] { state.withLock { $0.values } }
    var completions: Int { state.withLock { $0.completions } }
    var violations: [String] { state.withLock { $0.violations } }
}

/// Issue 3's operators fed from several threads; also run under the thread sanitizer.
@Suite struct OperatorStressTests {
    static let threads = 4
    static let perThread = 1_000

    @Test func combineLatestFromSeveralThreadsEndsOnTheLatestPair() {
        for _ in 0..<10 {
            let left = PublishSubject<Int, Never>()
            let right = PublishSubject<Int, Never>()
            let checker = GrammarChecker<Int, Never>()
            let subscription = left.signal.combineLatest(right.signal) { $0 * 10_000 + $1 }.subscribe(checker.observer)
            left.send(0)
            right.send(0)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 1...Self.perThread {
                    if thread % 2 == 0 { left.send(index) } else { right.send(index) }
                }
            }
            #expect(checker.violations.isEmpty)
            #expect(checker.values.last == Self.perThread * 10_000 + Self.perThread,
                    "after every send has landed, the last pair holds the last value of each side")
            subscription.dispose()
            #expect(left.subscriberCount == 0 && right.subscriberCount == 0)
        }
    }

    @Test func mergeFromSeveralThreadsLosesNothing() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int, Never>() }
        let checker = GrammarChecker<Int, Never>()
        let subscription = Signal.merge(subjects.map(\.signal)).subscribe(checker.observer)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread { subjects[thread].send(thread * 100_000 + index) }
            subjects[thread].sendCompleted()
        }
        #expect(checker.violations.isEmpty)
        #expect(checker.values.count == Self.threads * Self.perThread)
        #expect(Set(checker.values).count == checker.values.count)
        #expect(checker.completions == 1)
        subscription.dispose()
    }

    @Test func flatMapWithInnerStreamsOnOtherThreads() {
        let outer = PublishSubject<Int, Never>()
        let queue = SerialQueueScheduler(label: "inner")
        let checker = GrammarChecker<Int, Never>()
        let subscription = outer.signal
            .flatMap(maxConcurrent: 3) { value in Signal(sequence: [value, -value]).subscribe(on: queue) }
            .subscribe(checker.observer)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 1...250 { outer.send(thread * 1_000 + index) }
        }
        outer.sendCompleted()
        let done = DispatchSemaphore(value: 0)
        Poll.signal(done, when: { checker.completions == 1 })
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(checker.violations.isEmpty)
        #expect(checker.values.count == Self.threads * 250 * 2)
        subscription.dispose()
    }

    @Test func shareSubscribedAndDisposedFromSeveralThreads() {
        let source = PublishSubject<Int, Never>()
        let shared = source.signal.share(replay: 1)
        let checkers = Locked<[GrammarChecker<Int, Never>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<200 {
                if thread == 0 {
                    source.send(index)
                } else {
                    let checker = GrammarChecker<Int, Never>()
                    checkers.withLock { $0.append(checker) }
                    shared.subscribe(checker.observer).dispose()
                }
            }
        }
        #expect(source.subscriberCount == 0, "the last subscriber leaving disconnected the share")
        for checker in checkers.value { #expect(checker.violations.isEmpty) }
    }
}

enum Poll {
    /// Polls `condition` on a thread of its own and signals `semaphore` once it holds (the
    /// caller waits on the semaphore with a timeout). Not on Dispatch's pool: its threads are as
    /// many as the cores, and the work polled for may need the one this would hold.
    static func signal(_ semaphore: DispatchSemaphore, when condition: @escaping @Sendable () -> Bool) {
        _ = Worker {
            while !condition() { usleep(100) }
            semaphore.signal()
        }
    }
}
