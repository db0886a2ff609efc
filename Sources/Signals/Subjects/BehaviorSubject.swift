import Synchronization

/// A hot stream with a current value: each new subscriber receives the current value first,
/// then what is sent afterwards (RxSwift's `BehaviorSubject`, Combine's `CurrentValueSubject`).
///
/// ```text
/// send:        -b--c-|      (initial value a)
/// subscriber:  ab--c-|
/// late:        ---[^b]c-|   (subscribed at tick 3: receives b at once)
/// ```
///
/// `value` reflects the latest `send` as soon as it returns, even while delivery to observers
/// is still under way on another thread; observers see values in the same order. After the
/// terminal event, sends are ignored and new subscribers receive only the terminal event.
public final class BehaviorSubject<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    struct Latest {
        @usableFromInline var value: Value
        @usableFromInline var isTerminated = false

        @inlinable
        init(value: Value) { self.value = value }
    }

    @usableFromInline
    let core: SubjectCore<Value, Failure>
    @usableFromInline
    let latest: Locked<Latest>

    /// Creates a subject whose current value is `value`.
    public init(_ value: Value) {
        core = SubjectCore(replayLimit: 1, replaysAfterTerminal: false, initial: [value])
        latest = Locked(Latest(value: value))
    }

    /// The current value: the one most recently sent.
    public var value: Value {
        latest.withLock { $0.value }
    }

    /// Sets the current value and sends it to every subscriber.
    @inlinable
    public func send(_ value: Value) {
        update { $0 = value }
    }

    /// Changes the current value in place, atomically, and sends the result. Returns what `body`
    /// returns.
    @discardableResult
    @inlinable
    public func modify<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        update(body)
    }

    @usableFromInline
    enum Turn: Sendable { case direct, drain, queued, ignored }

    @inlinable
    func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        let core = self.core
        // The value changes and its delivery is ordered under the same lock, so observers see
        // values in the order `value` took them.
        let (turn, newValue, result) = latest.withLock { latest -> (Turn, Value?, Result) in
            if latest.isTerminated {
                // After the terminal event the value no longer changes; `body` sees a copy.
                var copy = latest.value
                return (.ignored, nil, body(&copy))
            }
            let result = body(&latest.value)
            let value = latest.value
            if core.queue.tryAcquire() { return (.direct, value, result) }
            let mustDrain = core.queue.enqueueWithoutDraining { core.deliver(value) }
            return (mustDrain ? .drain : .queued, nil, result)
        }
        switch turn {
        case .direct:
            core.deliver(newValue!)
            core.queue.releaseAndDrain()
        case .drain:
            core.queue.drain()
        case .queued, .ignored:
            break
        }
        return result
    }

    /// Ends the stream for every subscriber.
    public func send(completion: Completion<Failure>) {
        let first = latest.withLock { latest -> Bool in
            defer { latest.isTerminated = true }
            return !latest.isTerminated
        }
        if first { core.send(completion: completion) }
    }

    /// Completes the stream.
    public func sendCompleted() {
        send(completion: .completed)
    }

    /// Fails the stream.
    public func sendFailed(_ error: Failure) {
        send(completion: .failed(error))
    }

    /// The current value, then every value sent afterwards.
    @inlinable
    public var signal: Signal<Value, Failure> {
        Signal(unchecked: { [core] observer in core.subscribe(observer) })
    }

    /// An observer that forwards into this subject.
    public var observer: Observer<Value, Failure> {
        Observer(value: { [self] in send($0) }, completion: { [self] in send(completion: $0) })
    }

    /// How many subscriptions are attached (for tests and diagnostics).
    public var subscriberCount: Int { core.subscriberCount }
}
