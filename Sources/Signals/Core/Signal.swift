/// A typed, thread-safe, push-based stream of values that may complete or fail.
///
/// Every subscription obeys the grammar `value* (failed | completed)?`: any number of values,
/// then at most one terminal event, after which nothing is delivered, ever. A `Signal` is a
/// recipe: it is *cold*, so each subscription runs its producer anew, and operators return new
/// recipes without subscribing to anything. Use `Never` as `Failure` for streams that cannot fail.
///
/// ```swift
/// let words = Signal<String, Never>(sequence: ["you", "are", "beautiful"])
/// let subscription = words.map { $0.capitalized }.sink { print($0) }
/// ```
///
/// Values must be `Sendable`: a subscription may deliver on the thread of whoever sends, and
/// operators such as `observe(on:)` move values between threads.
@frozen
public struct Signal<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let subscribeObserver: @Sendable (Observer<Value, Failure>) -> any Disposable

    /// Set by `map`: builds that `map` followed by a `filter` as one stage, so each value makes
    /// one call through the chain instead of two (see `map(_:)`).
    @usableFromInline
    let filteredAsOneStage: (@Sendable (@escaping @Sendable (Value) -> Bool) -> Signal)?

    /// Wraps a subscribe function that already honours the grammar, serialization and
    /// disposal rules. Operators and subjects use it; user code goes through `init(_:)`.
    @inlinable
    init(unchecked subscribe: @escaping @Sendable (Observer<Value, Failure>) -> any Disposable) {
        self.subscribeObserver = subscribe
        self.filteredAsOneStage = nil
    }

    /// `init(unchecked:)` for a stage that a following `filter` can join.
    @inlinable
    init(
        unchecked subscribe: @escaping @Sendable (Observer<Value, Failure>) -> any Disposable,
        filteredAsOneStage: @escaping @Sendable (@escaping @Sendable (Value) -> Bool) -> Signal
    ) {
        self.subscribeObserver = subscribe
        self.filteredAsOneStage = filteredAsOneStage
    }

    /// Creates a cold stream from a producer that runs once per subscription.
    ///
    /// The producer gets an observer and returns a disposable that releases what it started (a
    /// request, a timer). The toolkit guards the observer: concurrent sends are serialized,
    /// anything sent after the terminal event or after disposal is dropped, and the returned
    /// disposable runs once, when the subscription completes, fails or is disposed.
    ///
    /// ```swift
    /// let ticks = Signal<Int, Never> { observer in
    ///     observer.send(1)
    ///     observer.sendCompleted()
    ///     return NopDisposable()
    /// }
    /// ```
    public init(_ producer: @escaping @Sendable (Observer<Value, Failure>) -> any Disposable) {
        self.init(unchecked: { downstream in
            let subscription = ProducerSubscription(downstream)
            subscription.setResource(producer(subscription.observer))
            return subscription
        })
    }

    /// Starts a subscription that delivers to `observer`. Keep the result and dispose it (or add
    /// it to a ``DisposeBag``) to end the subscription.
    @inlinable
    public func subscribe(_ observer: Observer<Value, Failure>) -> any Disposable {
        subscribeObserver(observer)
    }

    /// Starts a subscription with closures for values and for the terminal event.
    ///
    /// Values arrive on the thread that sends them unless `observe(on:)` says otherwise.
    @inlinable
    public func sink(
        value: @escaping @Sendable (Value) -> Void = { _ in },
        completion: @escaping @Sendable (Completion<Failure>) -> Void = { _ in }
    ) -> any Disposable {
        subscribeObserver(Observer(value: value, completion: completion))
    }
}
