import Synchronization

/// An observer behind a class reference with a `let`, so that an owner holding it unowned can
/// call it without retaining the closures.
@usableFromInline
final class ObserverBox<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let observer: Observer<Value, Failure>

    @usableFromInline
    init(_ observer: Observer<Value, Failure>) {
        self.observer = observer
    }
}

/// The subscription box of an operator with several inputs or with timers: every input event
/// runs as a job on one ``DeliveryQueue``, so the operator's `state` is touched by one thread at
/// a time without a lock, and outputs leave in the order the state changes that caused them.
///
/// Handlers are static closures `(box, input) -> Void`; they read and write `box.state` and
/// call `emit` or `finish`, all inside the owner turn, with no lock held. The box is the
/// operator's disposable: disposing it (or finishing) disposes every input subscription and
/// timer registered in `resources`.
@usableFromInline
final class SerialBox<State, Output: Sendable, OutFailure: Error>: DeliveryQueue, Disposable, @unchecked Sendable {
    // SAFETY: `state` and `downstream` are read and written only by the owner of `queue` (in
    // handlers run through `perform`, or in jobs queued on it); `stopped` and `resources` are
    // thread-safe on their own.
    // Owner-only, so the dynamic exclusivity check would only cost time.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var state: State
    /// The downstream observer, retained once (released when the output ends); borrowed on
    /// each emit, so emitting costs no reference counting.
    // SAFETY: owner-only, like `state`.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var downstream: Unmanaged<ObserverBox<Output, OutFailure>>?
    @usableFromInline let stopped = Atomic<Bool>(false)
    @usableFromInline let resources = CompositeDisposable()

    @usableFromInline
    init(_ downstream: Observer<Output, OutFailure>, state: State) {
        self.state = state
        self.downstream = .passRetained(ObserverBox(downstream))
        super.init()
        downstream.link?.attach(self)
    }

    deinit {
        downstream?.release()
    }

    /// Whether the output has ended (finished or disposed).
    @inlinable
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Runs `handler` with `input` in the owner turn: at once if nobody owns the queue,
    /// otherwise after the work already queued.
    @inlinable
    func perform<Input: Sendable>(_ input: Input, _ handler: @escaping @Sendable (SerialBox, Input) -> Void) {
        if isStopped { return }
        if queue.tryAcquire() {
            handler(self, input)
            queue.releaseAndDrain()
        } else {
            performInLine(input, handler)
        }
    }

    /// The contended path of `perform`, out of line so that the fast path stays small.
    @usableFromInline
    func performInLine<Input: Sendable>(_ input: Input, _ handler: @escaping @Sendable (SerialBox, Input) -> Void) {
        queue.run { [self] in
            if !isStopped { handler(self, input) }
        }
    }

    /// Sends a value downstream. Owner turn only.
    @inlinable
    func emit(_ value: Output) {
        if isStopped { return }
        downstream?._withUnsafeGuaranteedRef { $0.observer.onValue(value) }
    }

    /// Ends the output: sends the terminal event and disposes every resource. Owner turn only.
    @usableFromInline
    func finish(_ completion: Completion<OutFailure>) {
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        let downstream = self.downstream
        self.downstream = nil
        downstream?._withUnsafeGuaranteedRef { $0.observer.send(completion: completion) }
        downstream?.release()
        resources.dispose()
    }

    @usableFromInline
    func dispose() {
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        resources.dispose()
        // In turn: once `dispose()` returns, no emission is under way or starts (unless waiting
        // would deadlock: then the release is handed to the emitting thread; see DeliveryQueue).
        queue.run { [self] in
            downstream?.release()
            downstream = nil
        }
    }

    /// Subscribes to an input, routing its events to the handlers, with a link that lets this
    /// box stop it even while it is still inside `subscribe`.
    @inlinable
    @discardableResult
    func attach<Value, Failure>(
        _ signal: Signal<Value, Failure>,
        value onValue: @escaping @Sendable (SerialBox, Value) -> Void,
        completion onCompletion: @escaping @Sendable (SerialBox, Completion<Failure>) -> Void
    ) -> SubscriptionLink {
        let link = SubscriptionLink()
        resources.add(link)
        if isStopped { return link }
        link.attach(signal.subscribe(Observer(
            value: { [self] value in perform(value, onValue) },
            completion: { [self] completion in perform(completion, onCompletion) },
            link: link
        )))
        return link
    }

    /// Schedules `handler` on `scheduler` after `delay`, in the owner turn; the timer is
    /// cancelled with the box.
    @inlinable
    @discardableResult
    func schedule(
        after delay: Duration,
        on scheduler: some Scheduler,
        _ handler: @escaping @Sendable (SerialBox) -> Void
    ) -> any Disposable {
        let timer = scheduler.schedule(after: delay) { [self] in
            perform((), { box, _ in handler(box) })
        }
        resources.add(timer)
        return timer
    }
}
