import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock, shared between threads: the toolkit's lock, and a convenient box for
/// observers that need to record what they see.
///
/// ```swift
/// let received = Locked<[String]>([])
/// let subscription = signal.sink { value in received.withLock { $0.append(value) } }
/// ```
///
/// `Locked` has reference semantics: copies share one state. One allocation holds the state and
/// its lock, an atomic word taken with one inlined compare-exchange (a thread that finds it
/// taken spins briefly, then yields). It is meant for short bodies: hold it for a few reads and
/// writes, never around a call to unknown code (an observer), which could take it again (it is
/// not recursive) or hold everyone else up. Unlike `Synchronization.Mutex` on Linux, whose
/// contended path runs in the kernel where the thread sanitizer cannot see it (it then reports
/// races that are not there), this lock is plain atomics, visible to the sanitizer.
@frozen
public struct Locked<State>: @unchecked Sendable {
    // SAFETY: the state is only reached through `withLock`, which holds the lock stored beside
    // it in `LockStorage`; every copy of this struct shares that one storage.
    @usableFromInline
    let storage: LockStorage<State>

    /// Creates a lock guarding `initial`.
    @inlinable
    public init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inlinable
    public func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        try storage.withLock(body)
    }

    /// A copy of the state.
    @inlinable
    public var value: State {
        withLock { $0 }
    }
}

/// The state and its lock in one allocation.
///
/// The lock is one atomic word: taking it is one compare-exchange (acquiring), giving it back one
/// store (releasing), both inlined, so an uncontended `withLock` costs a few instructions
/// instead of two calls into the C library. A thread that finds it taken spins briefly, then
/// yields its time slice until the holder lets go; every body run under it is short and calls
/// out to nothing (the toolkit's rule), so holders let go quickly. Being plain atomics, the
/// acquire and release are visible to the thread sanitizer.
///
/// The atomic word lives in a non-generic base class: an atomic stored inline in a *generic*
/// class was laid out differently by code inlined into other modules (see `DeliveryQueue`).
@usableFromInline
final class LockStorage<State>: LockWord, @unchecked Sendable {
    // SAFETY: `state` is only touched between a successful acquire of `word` and the matching
    // release (in `withLock`), so accesses never overlap; the atomics order them.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var state: State

    @inlinable
    init(_ initial: State) {
        state = initial
        super.init()
    }

    @inlinable
    static func make(_ initial: State) -> LockStorage {
        LockStorage(initial)
    }

    @inlinable
    func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockContended()
        }
        defer { word.store(0, ordering: .releasing) }
        return try body(&state)
    }

}

/// The lock word of ``LockStorage``.
@usableFromInline
class LockWord: @unchecked Sendable {
    // SAFETY: the only stored property is an atomic.
    @usableFromInline final let word = Atomic<UInt32>(0)

    @usableFromInline
    init() {}

    @usableFromInline
    final func lockContended() {
        var spins = 0
        while true {
            if word.load(ordering: .relaxed) == 0,
               word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }
}
