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
/// a platform lock (`pthread_mutex_t` on Linux, `os_unfair_lock` on Apple platforms). Unlike
/// `Synchronization.Mutex` on Linux, whose contended path runs in the kernel where the thread
/// sanitizer cannot see it (it then reports races that are not there), this lock is visible to
/// the sanitizer, so stress tests can run under it. The lock is not recursive: never call out
/// to unknown code (an observer) inside `withLock`.
@frozen
public struct Locked<State>: @unchecked Sendable {
    // SAFETY: the state is only reached through `withLock`, which holds the platform lock stored
    // beside it in `LockStorage`; every copy of this struct shares that one storage.
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

/// The state and the platform lock in one allocation.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, LockStorage.Primitive> {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @inlinable
    static func make(_ initial: State) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(lock, nil)
            precondition(result == 0, "Locked: pthread_mutex_init failed (\(result))")
            #endif
        }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    @inlinable
    func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        try withUnsafeMutablePointers { state, lock throws(E) -> Result in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }

    deinit {
        // ManagedBuffer's own deinit destroys the header (the state); only the lock is ours.
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }
}
