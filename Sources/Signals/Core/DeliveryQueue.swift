import Synchronization

/// Serializes the work of one subject or subscription without holding a lock while it runs.
///
/// The thread that wins one compare-exchange becomes the *owner* and runs its work directly.
/// Work submitted while an owner is busy (from another thread, or re-entrantly from inside an
/// observer) is queued and run by the owner, in submission order, before it lets go. So:
/// - observer calls never overlap and never run under a toolkit lock;
/// - an observer may send into, subscribe to or dispose its own source without deadlock: that
///   work runs right after the current delivery has reached every observer;
/// - queued work may run on another sender's thread.
///
/// Invariant: `pending` counts the owner's direct work (1 while it runs) plus every queued job
/// whose submitter has incremented it. A job is appended *before* its increment, so whenever the
/// owner sees a non-zero count after its decrement, the queue holds at least that many jobs.
/// Each dequeued job is matched by exactly one decrement.
@usableFromInline
final class DeliveryQueue: Sendable {
    @usableFromInline
    let pending = Atomic<Int>(0)
    private let jobs = Locked(JobQueue())

    @usableFromInline
    init() {}

    /// Tries to become the owner without queueing. On success the caller runs its work and then
    /// calls ``releaseAndDrain()``.
    @inlinable
    func tryAcquire() -> Bool {
        pending.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Ends the owner's direct work and runs whatever was queued meanwhile.
    @usableFromInline
    func releaseAndDrain() {
        if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
        drain()
    }

    /// Runs `job` now if nobody owns the queue, otherwise queues it for the owner.
    @usableFromInline
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        if enqueueWithoutDraining(job) { drain() }
    }

    /// Queues `job`; returns `true` if the caller became the owner and must call ``drain()``
    /// (after releasing any lock it holds).
    @usableFromInline
    func enqueueWithoutDraining(_ job: @escaping @Sendable () -> Void) -> Bool {
        jobs.withLock { $0.append(job) }
        return pending.add(1, ordering: .acquiringAndReleasing).oldValue == 0
    }

    /// Runs queued jobs until the count drops to zero. Only the owner calls this.
    @usableFromInline
    func drain() {
        repeat {
            let job = jobs.withLock { $0.removeFirst() }
            job()
        } while pending.subtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}

/// A FIFO of jobs: an array with a moving head, compacted when the head passes half.
struct JobQueue {
    private var storage: [@Sendable () -> Void] = []
    private var head = 0

    mutating func append(_ job: @escaping @Sendable () -> Void) {
        storage.append(job)
    }

    mutating func removeFirst() -> @Sendable () -> Void {
        precondition(head < storage.count, "DeliveryQueue: a counted job is missing")
        let job = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 64)
            head = 0
        } else if head > 32 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return job
    }
}

/// State that only the current owner of a ``DeliveryQueue`` reads or writes.
///
/// Kept behind a pointer allocated once, so the hot path pays neither a lock nor the dynamic
/// exclusivity check a class `var` would cost.
@usableFromInline
final class OwnerState<State>: @unchecked Sendable {
    // SAFETY: `pointer` is only dereferenced by the thread that owns the associated
    // DeliveryQueue (between a successful acquire and the matching release), so accesses are
    // serialized by the queue's acquire/release ordering.
    @usableFromInline
    let pointer: UnsafeMutablePointer<State>

    @usableFromInline
    init(_ initial: State) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: initial)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
