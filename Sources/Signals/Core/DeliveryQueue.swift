import Dispatch
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Serializes the work of one subject or subscription (its *turns*) without holding a lock
/// while the work runs, and without making one thread run another thread's work.
///
/// The thread that wins one compare-exchange becomes the *owner* and runs its work directly. A
/// thread that finds the queue owned by another thread:
/// - **waits its turn** (first come, first served) and then runs its own work itself, so a
///   sender, a subscriber or a disposer never runs the work another thread asked for, and a
///   flooding sender is slowed to the pace of delivery instead of filling memory;
/// - **or hands its work to the owner** when waiting could never end: when the owner is, directly
///   or through a chain of waiting threads, waiting for this very thread (a cycle, such as two
///   streams that feed each other from two threads). The owner runs it when its turn is over.
///
/// Work submitted by the owner itself (re-entrantly, from inside an observer) is queued and run
/// by the owner right after the current work, in order. So:
/// - observer calls never overlap and never run under a toolkit lock;
/// - an observer may send into, subscribe to or dispose its own source without deadlock;
/// - an operation returns once its own work (and what that work sent re-entrantly) is done;
///   before that it may wait for the one turn under way on another thread.
///
/// Invariant: `pending` counts *units*: 1 for the owner's direct work, plus 1 for every item
/// (queued job or waiting thread) whose submitter has incremented it. An item is appended
/// *before* its increment, so whenever a thread sees a non-zero count after its decrement, the
/// backlog holds at least that many items. Whoever leaves the count non-zero processes the next
/// item: a job it runs (as owner), a waiting thread it hands the ownership to.
///
/// It is a base class rather than a field: the objects that serialize their work (subjects,
/// operator boxes, guarded producers) inherit its atomics, so no extra object is allocated,
/// and the layout is fixed (a non-copyable struct of atomics stored inside a *generic* class
/// was laid out differently by code inlined into other modules, which corrupted memory).
@usableFromInline
class DeliveryQueue: @unchecked Sendable {
    // SAFETY: every stored property is an atomic; the backlog they point to has its own lock.
    @usableFromInline
    final let pending = Atomic<Int>(0)
    /// The backlog of waiting jobs and threads, created on first contention (an uncontended
    /// subject never allocates one): the bit pattern of an opaque `LockStorage<Backlog>`,
    /// retained once.
    @usableFromInline final let store = Atomic<Int>(0)
    /// The thread running this queue's work (0 when none is known). Written by the owner when it
    /// takes the queue, read only by threads that find the queue busy.
    @usableFromInline final let owner = Atomic<UInt>(0)

    @usableFromInline
    init() {}

    /// This object, for call sites that read better as `queue.run { … }`.
    @inlinable
    final var queue: DeliveryQueue { self }

    deinit {
        if let raw = UnsafeMutableRawPointer(bitPattern: store.load(ordering: .acquiring)) {
            Unmanaged<LockStorage<Backlog>>.fromOpaque(raw).release()
        }
    }

    private final func backlog() -> LockStorage<Backlog> {
        if let raw = UnsafeMutableRawPointer(bitPattern: store.load(ordering: .acquiring)) {
            return Unmanaged<LockStorage<Backlog>>.fromOpaque(raw).takeUnretainedValue()
        }
        let created = LockStorage.make(Backlog())
        let raw = Unmanaged.passRetained(created).toOpaque()
        let (exchanged, existing) = store.compareExchange(expected: 0, desired: Int(bitPattern: raw), ordering: .acquiringAndReleasing)
        if exchanged { return created }
        Unmanaged<LockStorage<Backlog>>.fromOpaque(raw).release()
        return Unmanaged<LockStorage<Backlog>>.fromOpaque(UnsafeMutableRawPointer(bitPattern: existing)!).takeUnretainedValue()
    }

    /// Tries to become the owner without waiting. On success the caller runs its work and then
    /// calls ``releaseAndDrain()``.
    @inlinable
    final func tryAcquire() -> Bool {
        if pending.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            owner.store(currentThreadID(), ordering: .relaxed)
            return true
        }
        return false
    }

    /// Ends the owner's direct work and passes the queue on: runs the jobs queued meanwhile by
    /// its own work, and hands the queue to the next waiting thread.
    @inlinable
    final func releaseAndDrain() {
        owner.store(0, ordering: .relaxed)
        if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
        processBacklog(until: nil)
    }

    /// Runs `job` in turn: at once if nobody owns the queue, after the turn under way otherwise
    /// (on this thread), or, when this thread is the owner or waiting would never end, queued for
    /// the owner. Never call it while holding a lock.
    @usableFromInline
    final func run(_ job: @escaping @Sendable () -> Void) {
        if tryAcquire() {
            job()
            releaseAndDrain()
            return
        }
        complete(enter(job))
    }

    /// What ``enter(_:)`` decided; hand it to ``complete(_:)`` after releasing any lock held.
    @usableFromInline
    enum Ticket {
        /// The job was queued for the owner: nothing left to do.
        case queued
        /// Nobody was responsible for the backlog: process it (as owner), until `mine` if given.
        case process(Waiter?)
        /// Wait for the turn of `waiter`, then run its job.
        case wait(Waiter)
    }

    /// Takes a place in line for `job` without blocking, so that a caller holding a lock (which
    /// orders values) can fix the order of its work and wait for it after unlocking. The caller
    /// has already failed ``tryAcquire()``.
    @usableFromInline
    final func enter(_ job: @escaping @Sendable () -> Void) -> Ticket {
        let me = currentThreadID()
        if owner.load(ordering: .relaxed) == me {
            // Re-entrant: this thread is delivering; the job runs right after, on this thread.
            return append(.job(job))
        }
        let waits = WaitGraph.state.withLock { graph -> Bool in
            if WaitGraph.reaches(me, from: self, in: graph) { return false }
            graph[me] = Unmanaged.passUnretained(self)
            return true
        }
        guard waits else { return append(.job(job)) }
        let waiter = Waiter(job: job, thread: me)
        switch append(.waiter(waiter)) {
        case .queued: return .wait(waiter)
        default: return .process(waiter)
        }
    }

    private final func append(_ item: Backlog.Item) -> Ticket {
        backlog().withLock { $0.append(item) }
        if pending.add(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            return .process(nil)
        }
        return .queued
    }

    /// Finishes what ``enter(_:)`` started: waits for the turn, or processes the backlog.
    @usableFromInline
    final func complete(_ ticket: Ticket) {
        switch ticket {
        case .queued:
            return
        case .process(let mine):
            processBacklog(until: mine)
        case .wait(let waiter):
            waiter.park()
            waiter.job()
            releaseAndDrain()
        }
    }

    /// Processes backlog items while this thread is responsible for them: runs jobs, and hands
    /// the queue to the first waiting thread it meets. When that thread is this one (`mine`), it
    /// runs its own job instead. Returns when the queue is free or handed on (and, if `mine` was
    /// given, after this thread's own job has run).
    @usableFromInline
    final func processBacklog(until mine: Waiter?) {
        let backlog = self.backlog()
        let me = currentThreadID()
        while true {
            let item = backlog.withLock { $0.removeFirst() }
            switch item {
            case .job(let job):
                owner.store(me, ordering: .relaxed)
                job()
                owner.store(0, ordering: .relaxed)
                if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
            case .waiter(let waiter):
                WaitGraph.state.withLock { graph in
                    graph[waiter.thread] = nil
                    owner.store(waiter.thread, ordering: .relaxed)
                }
                if waiter === mine {
                    waiter.job()
                    releaseAndDrain()
                    return
                }
                waiter.unpark()
                if let mine {
                    mine.park()
                    mine.job()
                    releaseAndDrain()
                }
                return
            }
        }
    }
}

/// An identifier of the calling thread, cheap enough for every turn.
@inlinable
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A thread waiting for its turn on a ``DeliveryQueue``, with the work it will run then.
@usableFromInline
final class Waiter: @unchecked Sendable {
    // SAFETY: `job` and `thread` are immutable; the semaphore is thread-safe.
    let job: @Sendable () -> Void
    let thread: UInt
    private let handedOver = Atomic<Bool>(false)
    private let semaphore = DispatchSemaphore(value: 0)

    init(job: @escaping @Sendable () -> Void, thread: UInt) {
        self.job = job
        self.thread = thread
    }

    /// Returns once the queue was handed to this waiter. A turn usually lasts microseconds, so
    /// it spins briefly before it sleeps (a sleep and wake-up cost tens of microseconds).
    func park() {
        for spin in 0..<200 {
            if handedOver.load(ordering: .acquiring) { return }
            if spin >= 100 { sched_yield() }
        }
        while !handedOver.load(ordering: .acquiring) { semaphore.wait() }
    }

    func unpark() {
        handedOver.store(true, ordering: .releasing)
        semaphore.signal()
    }
}

/// Which thread waits for which queue, to refuse a wait that could never end. Touched only when
/// a queue is contended.
enum WaitGraph {
    static let state = Locked<[UInt: Unmanaged<DeliveryQueue>]>([:])

    /// Whether `thread` owns `queue` or a queue that the owner of `queue` waits for, through any
    /// chain of waiting threads. Call with the graph's lock held.
    static func reaches(_ thread: UInt, from queue: DeliveryQueue, in graph: [UInt: Unmanaged<DeliveryQueue>]) -> Bool {
        var queue = queue
        // A chain can be at most as long as the graph; a longer walk is a loop that does not
        // pass through `thread` (a hand-over in progress), which is not ours to break.
        for _ in 0...graph.count {
            let owner = queue.owner.load(ordering: .relaxed)
            if owner == 0 { return false }
            if owner == thread { return true }
            guard let next = graph[owner] else { return false }
            queue = next.takeUnretainedValue()
        }
        return false
    }
}

/// A FIFO of jobs and waiting threads: an array with a moving head, compacted when the head
/// passes half.
struct Backlog {
    enum Item {
        case job(@Sendable () -> Void)
        case waiter(Waiter)
    }

    private var storage: [Item] = []
    private var head = 0
    static let nothing: @Sendable () -> Void = {}

    mutating func append(_ item: Item) {
        storage.append(item)
    }

    mutating func removeFirst() -> Item {
        precondition(head < storage.count, "DeliveryQueue: a counted item is missing")
        let item = storage[head]
        // The slot keeps no reference: the array never holds the last one of a taken item, so
        // no user deinit runs under the backlog's lock when the array is compacted.
        storage[head] = .job(Backlog.nothing)
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 64)
            head = 0
        } else if head > 32 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return item
    }
}
