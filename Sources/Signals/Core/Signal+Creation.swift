extension Signal {
    /// Emits one value, then completes.
    ///
    /// ```text
    /// just(a):  [a|]
    /// ```
    @inlinable
    public static func just(_ value: Value) -> Signal {
        // Parenthesised: inside the module a trailing closure would also match `init(unchecked:)`.
        Signal({ observer in
            observer.send(value)
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Completes at once without a value.
    ///
    /// ```text
    /// empty:  |
    /// ```
    @inlinable
    public static var empty: Signal {
        Signal(unchecked: { observer in
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Never emits and never ends.
    ///
    /// ```text
    /// never:  ------
    /// ```
    @inlinable
    public static var never: Signal {
        Signal(unchecked: { _ in NopDisposable() })
    }

    /// Fails at once with `error`.
    ///
    /// ```text
    /// fail(e):  #
    /// ```
    @inlinable
    public static func fail(_ error: Failure) -> Signal {
        Signal(unchecked: { observer in
            observer.sendFailed(error)
            return NopDisposable()
        })
    }

    /// Builds a new stream for each subscription by calling `make` at subscription time.
    ///
    /// Use it to read state when someone subscribes rather than when the stream is created.
    @inlinable
    public static func deferred(_ make: @escaping @Sendable () -> Signal) -> Signal {
        Signal(unchecked: { observer in make().subscribe(observer) })
    }

    /// Emits the elements of a sequence in order, then completes (seed 002's
    /// `rac_sequence.signal`).
    ///
    /// ```text
    /// [a, b, c]:  [abc|]
    /// ```
    ///
    /// Elements are emitted synchronously during `subscribe`; the loop stops as soon as the
    /// subscription is disposed, even by an operator downstream (`prefix`), so an endless
    /// sequence can be limited.
    public init<S: Sequence & Sendable>(sequence: S) where S.Element == Value {
        self.init(unchecked: { downstream in
            let subscription = ProducerSubscription(downstream)
            let observer = subscription.observer
            for element in sequence {
                if subscription.isStopped { return subscription }
                observer.send(element)
            }
            observer.sendCompleted()
            return subscription
        })
    }
}

extension Sequence where Self: Sendable, Element: Sendable {
    /// The elements as a stream that emits them in order and completes (seed 002's
    /// `rac_sequence.signal`).
    public var signal: Signal<Element, Never> {
        Signal(sequence: self)
    }
}
