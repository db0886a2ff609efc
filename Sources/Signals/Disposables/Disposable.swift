import Synchronization

/// Something that can be disposed: a subscription, a scheduled action, a resource.
///
/// Disposing is idempotent and thread-safe: only the first call has an effect.
///
/// Disposing a subscription may wait for a delivery that another thread has under way on the
/// same stream (so that once `dispose()` returns, the observer is not called again). Do not
/// call it while holding a lock that an observer of that stream may take.
public protocol Disposable: Sendable {
    /// Ends the subscription or releases the resource. Calling it again does nothing.
    func dispose()
}

/// A disposable that runs a closure once, on the first `dispose()`.
///
/// The closure is released as soon as it has run, so whatever it captured is freed with it.
public final class AnyDisposable: Disposable {
    private let action: Locked<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` on the first `dispose()`.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// Creates a disposable that has nothing to do (but still reports `isDisposed`).
    public convenience init() {
        self.init({})
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        action.withLock { $0 == nil }
    }

    public func dispose() {
        let action = self.action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}

/// A disposable that does nothing; used where a subscription holds no resource.
public struct NopDisposable: Disposable {
    public init() {}
    @inlinable public func dispose() {}
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when the bag is deinitialised.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }

    /// Adds this disposable to a composite, which disposes it with the others.
    public func disposed(by composite: CompositeDisposable) {
        composite.add(self)
    }
}
