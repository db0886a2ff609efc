import Synchronization

/// The box behind a subscription to a producer made with `Signal.init(_:)`: observer guard,
/// serializer, stop flag and disposable in one allocation.
@usableFromInline
final class ProducerSubscription<Value: Sendable, Failure: Error>: DeliveryQueue, Disposable, @unchecked Sendable {
    // SAFETY: `state` is atomic and `resource` thread-safe; `downstream` is owner-only (below).
    private static var active: UInt8 { 0 }
    private static var terminated: UInt8 { 1 }
    private static var disposed: UInt8 { 2 }

    private let state = Atomic<UInt8>(0)
    private let resource = SerialDisposable()
    // SAFETY: `downstream` is read and written only by the owner of `queue` (every access is in
    // a job run through `queue`), so accesses never overlap. It is retained once and released
    // when the subscription ends; delivery borrows it.
    @exclusivity(unchecked) private nonisolated(unsafe) var downstream: Unmanaged<ObserverBox<Value, Failure>>?

    @usableFromInline
    init(_ downstream: Observer<Value, Failure>) {
        self.downstream = .passRetained(ObserverBox(downstream))
        super.init()
        downstream.link?.attach(self)
    }

    deinit {
        downstream?.release()
    }

    /// Whether the subscription has ended (terminal event delivered, or disposed). Producers
    /// that loop should stop when it turns `true`.
    @usableFromInline
    var isStopped: Bool {
        state.load(ordering: .acquiring) != Self.active
    }

    /// The guarded observer handed to the producer.
    @usableFromInline
    var observer: Observer<Value, Failure> {
        Observer(
            value: { [self] value in receive(value) },
            completion: { [self] completion in receive(completion) }
        )
    }

    @usableFromInline
    func setResource(_ disposable: any Disposable) {
        resource.inner = disposable
    }

    @usableFromInline
    func receive(_ value: Value) {
        if isStopped { return }
        if queue.tryAcquire() {
            deliver(value)
            queue.releaseAndDrain()
        } else {
            receiveInLine(value)
        }
    }

    @usableFromInline
    func receiveInLine(_ value: Value) {
        queue.run { [self] in deliver(value) }
    }

    private func deliver(_ value: Value) {
        guard !isStopped, let downstream else { return }
        downstream._withUnsafeGuaranteedRef { $0.observer.onValue(value) }
    }

    @usableFromInline
    func receive(_ completion: Completion<Failure>) {
        if isStopped { return }
        if queue.tryAcquire() {
            finish(completion)
            queue.releaseAndDrain()
        } else {
            queue.run { [self] in finish(completion) }
        }
    }

    private func finish(_ completion: Completion<Failure>) {
        guard state.compareExchange(
            expected: Self.active, desired: Self.terminated, ordering: .acquiringAndReleasing
        ).exchanged, let downstream else { return }
        self.downstream = nil
        downstream._withUnsafeGuaranteedRef { $0.observer.send(completion: completion) }
        downstream.release()
        resource.dispose()
    }

    @usableFromInline
    func dispose() {
        guard state.compareExchange(
            expected: Self.active, desired: Self.disposed, ordering: .acquiringAndReleasing
        ).exchanged else { return }
        resource.dispose()
        // In turn, so that once `dispose()` returns no delivery is under way on another thread
        // (it waits for that one turn) and none starts: the observer is not called again. (The
        // one exception: when waiting would deadlock, the release is handed to the delivering
        // thread, which is itself waiting for this one, and `dispose` returns at once.)
        queue.run { [self] in
            downstream?.release()
            downstream = nil
        }
    }
}
