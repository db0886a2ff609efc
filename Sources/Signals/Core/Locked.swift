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
/// the lock: `os_unfair_lock` on Apple platforms; elsewhere a lock word (one atomic instruction
/// to take a free lock, one to give it back) whose waiters park on a semaphore made at the
/// first wait. Unlike `Synchronization.Mutex` on Linux, whose contended path runs in the kernel
/// where the thread sanitizer cannot see it (it then reports races that are not there), this
/// lock is visible to the sanitizer, so stress tests can run under it. The lock is not
/// recursive: never call out to unknown code (an observer) inside `withLock`.
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

#if canImport(Darwin)
/// The state and the platform lock in one allocation.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, os_unfair_lock> {
    @inlinable
    static func make(_ initial: State) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { lock in
            lock.initialize(to: os_unfair_lock())
        }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    @inlinable
    func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        try withUnsafeMutablePointers { state, lock throws(E) -> Result in
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            return try body(&state.pointee)
        }
    }

    deinit {
        // ManagedBuffer's own deinit destroys the header (the state); only the lock is ours.
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }
}
#else
/// The state and its lock in one allocation: a lock word, and the bit pattern of a semaphore
/// that parks waiting threads, made at the first wait (most locks are never waited for).
///
/// Taking a free lock is one compare-exchange and giving it back one subtract, where
/// `pthread_mutex_lock` and `_unlock` cost 55 instructions together. The word is Go's
/// `sync.Mutex` without its starvation mode: bit 0 says held, bit 1 that a parked thread was
/// woken and has not run yet, and the rest counts the parked threads. A thread that finds the
/// lock held spins briefly, then counts itself in and parks on the semaphore. Giving the lock
/// back wakes one parked thread (unless one is already awake or the lock was taken again
/// meanwhile), which then competes for the lock like any arriving thread: a running thread may
/// take it first (no convoy of hand-offs). Each post matches one thread taken off the count, so
/// the semaphore never runs ahead. Waiters park rather than spin and yield (an atomic-word lock
/// that only spun starved the liveness test under the thread sanitizer), and the sanitizer
/// sees every hand-over: the lock is taken by an acquiring compare-exchange that reads what the
/// releasing subtract wrote.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, Atomic<Int>> {
    @inlinable
    static func make(_ initial: State) -> LockStorage {
        let buffer = create(minimumCapacity: 2) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { words in
            words.initialize(to: Atomic(0))
            (words + 1).initialize(to: Atomic(0))
        }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    @inlinable
    func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        try withUnsafeMutablePointers { state, word throws(E) -> Result in
            if !word.pointee.compareExchange(expected: 0, desired: LockWord.held, ordering: .acquiring).exchanged {
                LockWord.waitForTurn(word)
            }
            defer {
                let rest = word.pointee.wrappingSubtract(LockWord.held, ordering: .releasing).newValue
                if rest != 0 { LockWord.wakeOne(word, rest) }
            }
            return try body(&state.pointee)
        }
    }

    deinit {
        // ManagedBuffer's own deinit destroys the header (the state); the words are ours.
        withUnsafeMutablePointerToElements { words in
            let semaphore = (words + 1).pointee.load(ordering: .acquiring)
            if let semaphore = UnsafeMutablePointer<sem_t>(bitPattern: semaphore) {
                sem_destroy(semaphore)
                semaphore.deallocate()
            }
            _ = words.deinitialize(count: 2)
        }
    }
}

/// The lock word's bits and its contended paths, apart from `LockStorage` so that nothing on
/// the fast path needs the generic class's metadata.
@usableFromInline
enum LockWord {
    /// Bit 0: the lock is held.
    @inlinable static var held: Int { 1 }
    /// Bit 1: a parked thread was woken and has not run yet.
    @inlinable static var woken: Int { 2 }
    /// One parked thread, in the count above the two bits.
    @inlinable static var oneParked: Int { 4 }

    /// The contended path of taking the lock. Returns holding it.
    @usableFromInline
    static func waitForTurn(_ word: UnsafeMutablePointer<Atomic<Int>>) {
        waitForTurn(word.pointee, parkingIn: (word + 1).pointee)
    }

    /// ``waitForTurn(_:)`` for a word and its parking slot stored apart (in an object's fields).
    @usableFromInline
    static func waitForTurn(_ word: borrowing Atomic<Int>, parkingIn slot: borrowing Atomic<Int>) {
        var awake = false
        var spins = 0
        var old = word.load(ordering: .relaxed)
        while true {
            // A short spin while it is held: critical sections here are a few dozen instructions.
            if old & held != 0 && spins < 64 {
                spins += 1
                old = word.load(ordering: .relaxed)
                continue
            }
            // Take it if it is free, otherwise count this thread among the parked ones. A woken
            // thread clears the woken bit either way, so that the next release may wake another.
            var new = old & held == 0 ? old | held : old + oneParked
            if awake { new &= ~woken }
            let (exchanged, current) = word.compareExchange(
                expected: old, desired: new, ordering: .acquiringAndReleasing)
            guard exchanged else {
                old = current
                continue
            }
            if old & held == 0 { return }
            let semaphore = parking(slot)
            while sem_wait(semaphore) != 0 {
                precondition(errno == EINTR, "Locked: sem_wait failed (errno \(errno))")
            }
            awake = true
            spins = 0
            old = word.load(ordering: .relaxed)
        }
    }

    /// The contended path of giving the lock back (`old` is the word just after it): wakes one
    /// parked thread, taking it off the count, unless there is none, one is awake already, or
    /// another thread has taken the lock meanwhile (its release will wake one).
    @usableFromInline
    static func wakeOne(_ word: UnsafeMutablePointer<Atomic<Int>>, _ old: Int) {
        wakeOne(word.pointee, parkingIn: (word + 1).pointee, old)
    }

    /// ``wakeOne(_:_:)`` for a word and its parking slot stored apart (in an object's fields).
    @usableFromInline
    static func wakeOne(_ word: borrowing Atomic<Int>, parkingIn slot: borrowing Atomic<Int>, _ old: Int) {
        var old = old
        while old >= oneParked && old & (held | woken) == 0 {
            let (exchanged, current) = word.compareExchange(
                expected: old, desired: (old - oneParked) | woken, ordering: .acquiringAndReleasing)
            if exchanged {
                let result = sem_post(parking(slot))
                precondition(result == 0, "Locked: sem_post failed (errno \(errno))")
                return
            }
            old = current
        }
    }

    /// Frees the semaphore made at `slot`, if any: when the lock's owner is freed.
    @usableFromInline
    static func destroyParking(_ slot: borrowing Atomic<Int>) {
        if let semaphore = UnsafeMutablePointer<sem_t>(bitPattern: slot.load(ordering: .acquiring)) {
            sem_destroy(semaphore)
            semaphore.deallocate()
        }
    }

    /// The semaphore stored (as a bit pattern) at `slot`, made by whichever thread needs it
    /// first: a waiter about to park or a holder about to wake it.
    @usableFromInline
    static func parking(_ slot: borrowing Atomic<Int>) -> UnsafeMutablePointer<sem_t> {
        let existing = slot.load(ordering: .acquiring)
        if existing != 0 { return UnsafeMutablePointer(bitPattern: existing).unsafelyUnwrapped }
        let made = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        let result = sem_init(made, 0, 0)
        precondition(result == 0, "Locked: sem_init failed (errno \(errno))")
        let (exchanged, original) = slot.compareExchange(
            expected: 0, desired: Int(bitPattern: made), ordering: .acquiringAndReleasing)
        if exchanged { return made }
        sem_destroy(made)
        made.deallocate()
        return UnsafeMutablePointer(bitPattern: original).unsafelyUnwrapped
    }
}
#endif
