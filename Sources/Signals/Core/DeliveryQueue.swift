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
/// Work submitted by the owner itself (re-entrantly, from inside an observer) is queued behind
/// whatever is already in line, in order: it runs right after the current work, on this thread,
/// unless another thread was already waiting for its turn, in which case that thread runs it
/// right after its own work (first come, first served keeps values in the order they were set).
/// So:
/// - observer calls never overlap and never run under a toolkit lock;
/// - an observer may send into, subscribe to or dispose its own source without deadlock;
/// - an operation returns once its own work is done (and, uncontended, what that work sent
///   re-entrantly); before that it may wait for the one turn under way on another thread. A
///   thread runs another's work only in those two cases: queued re-entrant work behind its own
///   turn, and work handed over to break a cycle.
///
/// State: one word, `turn`. `0` when free; otherwise the owner's thread identifier, with bit 0 set
/// while the backlog may hold items. The owner's thread is in the word itself, so taking and
/// giving back the queue is one compare-exchange each, and a thread that finds the queue busy
/// knows who owns it. Invariants: the word is never 0 while the backlog holds items (an item is
/// appended, and bit 0 set, under the backlog's lock; the owner empties the backlog under that
/// lock before it frees the word); and the word only changes from one owner to another under the
/// backlog's lock (hand-over) or through 0.
///
/// It is a base class rather than a field: the objects that serialize their work (subjects,
/// operator boxes, guarded producers) inherit its atomics, so no extra object is allocated,
/// and the layout is fixed (a non-copyable struct of atomics stored inside a *generic* class
/// was laid out differently by code inlined into other modules, which corrupted memory).
@usableFromInline
class DeliveryQueue: @unchecked Sendable {
    // SAFETY: both stored properties are atomics; the backlog they point to has its own lock.
    @usableFromInline
    final let turn = Atomic<UInt>(0)
    /// The backlog of waiting jobs and threads, created on first contention (an uncontended
    /// subject never allocates one): the bit pattern of an opaque `LockStorage<Backlog>`,
    /// retained once.
    @usableFromInline final let store = Atomic<Int>(0)

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
        turn.compareExchange(expected: 0, desired: currentThreadID(), ordering: .acquiring).exchanged
    }

    /// Ends the owner's turn and passes the queue on: runs the jobs queued meanwhile (by its own
    /// work, or handed over from a cycle), and hands the queue to the next waiting thread.
    ///
    /// During a turn the word is the owner's thread identifier, with bit 0 set if the backlog
    /// may hold items (the owner took the word, or it was handed to it, as its own identifier).
    /// So one compare-exchange from this thread's identifier to 0 frees an uncontended queue,
    /// with no load first: the identifier is the one `tryAcquire()` just used, and the compiler
    /// reuses it.
    @inlinable
    final func releaseAndDrain() {
        if turn.compareExchange(expected: currentThreadID(), desired: 0, ordering: .releasing).exchanged {
            return
        }
        processBacklog()
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
        /// The queue was free after all: this thread owns it; run the job, then release.
        case owner(@Sendable () -> Void)
        /// Wait for the turn of `waiter`, then run its job.
        case wait(Waiter)
    }

    /// Takes a place in line for `job` without blocking, so that a caller holding a lock (which
    /// orders values) can fix the order of its work and wait for it after unlocking. The caller
    /// has already failed ``tryAcquire()``.
    @usableFromInline
    final func enter(_ job: @escaping @Sendable () -> Void) -> Ticket {
        let me = currentThreadID()
        return backlog().withLock { backlog -> Ticket in
            var current = turn.load(ordering: .acquiring)
            while true {
                if current == 0 {
                    // Freed meanwhile (the backlog is empty then): take it.
                    let (exchanged, actual) = turn.compareExchange(expected: 0, desired: me, ordering: .acquiring)
                    if exchanged { return .owner(job) }
                    current = actual
                    continue
                }
                if current & ~1 == me {
                    // Re-entrant: this thread is delivering; the job runs right after, here.
                    backlog.append(.job(job))
                    turn.bitwiseOr(1, ordering: .relaxed)
                    return .queued
                }
                // Owned by another thread: mark the backlog non-empty (the owner cannot free
                // the word without taking this lock, but it may hand it over or free it first).
                let (exchanged, actual) = turn.compareExchange(expected: current, desired: current | 1, ordering: .acquiringAndReleasing)
                if exchanged { break }
                current = actual
            }
            let owner = current & ~1
            let waits = WaitGraph.state.withLock { graph -> Bool in
                if WaitGraph.reaches(me, fromOwner: owner, in: graph) { return false }
                graph[me] = Unmanaged.passUnretained(self)
                return true
            }
            guard waits else {
                backlog.append(.job(job))
                return .queued
            }
            let waiter = Waiter(job: job, thread: me)
            backlog.append(.waiter(waiter))
            return .wait(waiter)
        }
    }

    /// Finishes what ``enter(_:)`` started: runs the job as owner, or waits for the turn.
    @usableFromInline
    final func complete(_ ticket: Ticket) {
        switch ticket {
        case .queued:
            return
        case .owner(let job):
            job()
            releaseAndDrain()
        case .wait(let waiter):
            waiter.park()
            waiter.job()
            releaseAndDrain()
        }
    }

    /// The owner's way out when the backlog may hold items: runs queued jobs (still as owner),
    /// hands the queue to the first waiting thread it meets, or frees it once the backlog is
    /// empty.
    @usableFromInline
    final func processBacklog() {
        let backlog = self.backlog()
        while true {
            let next = backlog.withLock { backlog -> Backlog.Item? in
                guard let item = backlog.removeFirst() else {
                    turn.store(0, ordering: .releasing)
                    return nil
                }
                if case .waiter(let waiter) = item {
                    let more: UInt = backlog.isEmpty ? 0 : 1
                    WaitGraph.state.withLock { graph in
                        graph[waiter.thread] = nil
                        turn.store(waiter.thread | more, ordering: .releasing)
                    }
                }
                return item
            }
            switch next {
            case nil:
                return
            case .job(let job):
                job()
            case .waiter(let waiter):
                waiter.unpark()
                return
            }
        }
    }
}

/// An identifier of the calling thread, cheap enough for every turn: the address of the
/// thread's control block (never 0, and aligned, so bit 0 is free for ``DeliveryQueue``).
@inlinable
func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())  // a pointer on Darwin and Musl
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

    /// Whether `thread` is `owner`, or owns a queue that `owner` waits for, through any chain
    /// of waiting threads. Call with the graph's lock held.
    static func reaches(_ thread: UInt, fromOwner owner: UInt, in graph: [UInt: Unmanaged<DeliveryQueue>]) -> Bool {
        var owner = owner
        // A chain can be at most as long as the graph; a longer walk is a loop that does not
        // pass through `thread` (a hand-over in progress), which is not ours to break.
        for _ in 0...graph.count {
            if owner == 0 { return false }
            if owner == thread { return true }
            guard let next = graph[owner] else { return false }
            owner = next.takeUnretainedValue().turn.load(ordering: .acquiring) & ~1
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

    var isEmpty: Bool { head == storage.count }

    mutating func removeFirst() -> Item? {
        guard head < storage.count else { return nil }
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
