import Synchronization

/// Receives the events of one subscription: values, then at most one completion.
///
/// An observer is two closures, one for values and one for the terminal event, so a value is
/// never wrapped in an enum on its way through a chain. Operators such as `map` and `filter`
/// build a new observer around the downstream one when a subscription starts; nothing is
/// allocated per value.
@frozen
public struct Observer<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let onValue: @Sendable (Value) -> Void
    @usableFromInline
    let onCompletion: @Sendable (Completion<Failure>) -> Void
    /// Where a source registers itself as soon as it starts, so that a downstream operator that
    /// ends early (`prefix`, `prefix(untilOutputFrom:)`) can stop a source that is still emitting
    /// synchronously inside `subscribe`.
    @usableFromInline
    let link: SubscriptionLink?

    /// Creates an observer from two closures.
    @inlinable
    public init(
        value: @escaping @Sendable (Value) -> Void = { _ in },
        completion: @escaping @Sendable (Completion<Failure>) -> Void = { _ in }
    ) {
        self.onValue = value
        self.onCompletion = completion
        self.link = nil
    }

    @inlinable
    init(
        value: @escaping @Sendable (Value) -> Void,
        completion: @escaping @Sendable (Completion<Failure>) -> Void,
        link: SubscriptionLink?
    ) {
        self.onValue = value
        self.onCompletion = completion
        self.link = link
    }

    /// Delivers a value.
    @inlinable
    public func send(_ value: Value) {
        onValue(value)
    }

    /// Delivers the terminal event.
    @inlinable
    public func send(completion: Completion<Failure>) {
        onCompletion(completion)
    }

    /// Completes the stream normally.
    @inlinable
    public func sendCompleted() {
        onCompletion(.completed)
    }

    /// Fails the stream.
    @inlinable
    public func sendFailed(_ error: Failure) {
        onCompletion(.failed(error))
    }

    /// Delivers an event, whichever kind it is.
    @inlinable
    public func send(event: Event<Value, Failure>) {
        switch event {
        case .value(let value): onValue(value)
        case .completed: onCompletion(.completed)
        case .failed(let error): onCompletion(.failed(error))
        }
    }

    /// The same observer with a different early-cancellation link (operators that cut their
    /// upstream independently give it their own).
    @inlinable
    func with(link: SubscriptionLink?) -> Observer {
        Observer(value: onValue, completion: onCompletion, link: link)
    }
}

/// The disposable of an upstream subscription, known before `subscribe` returns.
///
/// A source attaches its subscription box as soon as it exists; the operator that created the
/// link disposes it to stop the source, even while the source is still inside `subscribe`.
/// Once disposed, anything attached later is disposed at once.
///
/// Not final: an operator may extend it with what its observer's closures need (see
/// `SwitchInner`), so that one object is both the link and the closures' only capture.
@usableFromInline
class SubscriptionLink: Disposable, @unchecked Sendable {
    // SAFETY: `current` and `disposed` are touched only inside `locked`, which holds the link's
    // lock: that is their exclusive access, so the runtime's check of it is turned off
    // (`@exclusivity(unchecked)`, two calls per access). Subclasses add `let`s only.
    #if canImport(Darwin)
    private final let lock = Locked(())
    #else
    /// The lock, in the link's own fields rather than an object of its own (one allocation per
    /// link fewer): `LockStorage`'s word and the bit pattern of its parking semaphore.
    private final let word = Atomic<Int>(0)
    private final let parking = Atomic<Int>(0)
    #endif
    /// The upstream subscription, as a plain existential, never an optional (see `DisposableSlot`).
    @exclusivity(unchecked) private final var current: any Disposable = NopDisposable()
    @exclusivity(unchecked) private final var disposed = false

    @usableFromInline
    init() {}

    #if !canImport(Darwin)
    deinit {
        LockWord.destroyParking(parking)
    }
    #endif

    /// Runs `body` holding the link's lock. `body` never calls out.
    @inline(__always)
    private final func locked<Result>(_ body: () -> Result) -> Result {
        #if canImport(Darwin)
        return lock.withLock { _ in body() }
        #else
        if !word.compareExchange(expected: 0, desired: LockWord.held, ordering: .acquiring).exchanged {
            LockWord.waitForTurn(word, parkingIn: parking)
        }
        defer {
            let rest = word.wrappingSubtract(LockWord.held, ordering: .releasing).newValue
            if rest != 0 { LockWord.wakeOne(word, parkingIn: parking, rest) }
        }
        return body()
        #endif
    }

    @usableFromInline
    final var isDisposed: Bool {
        locked { disposed }
    }

    /// Registers the upstream disposable (replacing an earlier one without disposing it: it is
    /// the same subscription, reported again when `subscribe` returns); disposes it at once if
    /// the link is disposed. What it replaces is released after unlocking.
    @usableFromInline
    @inline(__always)
    final func attach(_ disposable: consuming any Disposable) {
        var incoming = consume disposable
        attach(moving: &incoming)
    }

    /// `attach(_:)`, taking the disposable out of `incoming` (which is left holding a
    /// `NopDisposable`, or the disposable itself if the link was disposed and disposed it): the
    /// caller's reference becomes the link's, with no copy.
    @usableFromInline
    final func attach(moving incoming: inout any Disposable) {
        var previous: any Disposable = NopDisposable()
        let accepted = locked { () -> Bool in
            if disposed { return false }
            DisposableSlot.rotate(&incoming, into: &current, out: &previous)
            return true
        }
        if !accepted { incoming.dispose() }
    }

    /// Disposes the upstream subscription (after unlocking) and anything attached later (once).
    @usableFromInline
    final func dispose() {
        var previous: any Disposable = NopDisposable()
        locked {
            if disposed { return }
            disposed = true
            DisposableSlot.move(&current, to: &previous, replacingWith: NopDisposable())
        }
        previous.dispose()
    }
}
