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
///
/// It is a base class rather than a field: the objects that serialize their work (subjects,
/// operator boxes, guarded producers) inherit its two atomics, so no extra object is allocated,
/// and the layout is fixed (a non-copyable struct of atomics stored inside a *generic* class
/// was laid out differently by code inlined into other modules, which corrupted memory).
@usableFromInline
class DeliveryQueue: @unchecked Sendable {
    // SAFETY: both stored properties are atomics; the job queue they point to has its own lock.
    @usableFromInline
    final let pending = Atomic<Int>(0)
    /// The queue of waiting jobs, created on first contention (an uncontended subject never
    /// allocates one): the bit pattern of an opaque `LockStorage<JobQueue>`, retained once.
    @usableFromInline final let store = Atomic<Int>(0)

    @usableFromInline
    init() {}

    /// This object, for call sites that read better as `queue.enqueue { … }`.
    @inlinable
    final var queue: DeliveryQueue { self }

    deinit {
        if let raw = UnsafeMutableRawPointer(bitPattern: store.load(ordering: .acquiring)) {
            Unmanaged<LockStorage<JobQueue>>.fromOpaque(raw).release()
        }
    }

    private final func jobs() -> LockStorage<JobQueue> {
        if let raw = UnsafeMutableRawPointer(bitPattern: store.load(ordering: .acquiring)) {
            return Unmanaged<LockStorage<JobQueue>>.fromOpaque(raw).takeUnretainedValue()
        }
        let created = LockStorage.make(JobQueue())
        let raw = Unmanaged.passRetained(created).toOpaque()
        let (exchanged, existing) = store.compareExchange(expected: 0, desired: Int(bitPattern: raw), ordering: .acquiringAndReleasing)
        if exchanged { return created }
        Unmanaged<LockStorage<JobQueue>>.fromOpaque(raw).release()
        return Unmanaged<LockStorage<JobQueue>>.fromOpaque(UnsafeMutableRawPointer(bitPattern: existing)!).takeUnretainedValue()
    }

    /// Tries to become the owner without queueing. On success the caller runs its work and then
    /// calls ``releaseAndDrain()``.
    @inlinable
    final func tryAcquire() -> Bool {
        pending.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Ends the owner's direct work and runs whatever was queued meanwhile.
    @usableFromInline
    final func releaseAndDrain() {
        if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
        drain()
    }

    /// Runs `job` now if nobody owns the queue, otherwise queues it for the owner.
    @usableFromInline
    final func enqueue(_ job: @escaping @Sendable () -> Void) {
        if enqueueWithoutDraining(job) { drain() }
    }

    /// Queues `job`; returns `true` if the caller became the owner and must call ``drain()``
    /// (after releasing any lock it holds).
    @usableFromInline
    final func enqueueWithoutDraining(_ job: @escaping @Sendable () -> Void) -> Bool {
        jobs().withLock { $0.append(job) }
        return pending.add(1, ordering: .acquiringAndReleasing).oldValue == 0
    }

    /// Runs queued jobs until the count drops to zero. Only the owner calls this.
    @usableFromInline
    final func drain() {
        let jobs = self.jobs()
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
