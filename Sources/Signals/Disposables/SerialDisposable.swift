import Synchronization

/// Holds one disposable at a time: setting a new one disposes the previous one.
///
/// Once the serial disposable itself is disposed, its current disposable is disposed and any
/// disposable assigned later is disposed at once.
public final class SerialDisposable: Disposable {
    private struct State {
        var current: (any Disposable)?
        var isDisposed = false
    }

    private let state = Locked(State())

    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current disposable. Setting it disposes the previous one (outside any lock).
    public var inner: (any Disposable)? {
        get { state.withLock { $0.current } }
        set {
            let (previous, rejected) = state.withLock { state -> ((any Disposable)?, (any Disposable)?) in
                if state.isDisposed { return (nil, newValue) }
                defer { state.current = newValue }
                return (state.current, nil)
            }
            previous?.dispose()
            rejected?.dispose()
        }
    }

    /// Sets the current disposable without disposing the previous one (for re-reporting the same
    /// subscription); disposes `disposable` at once if this serial disposable is disposed.
    func replace(with disposable: any Disposable) {
        let (rejected, previous) = state.withLock { state -> (Bool, (any Disposable)?) in
            if state.isDisposed { return (true, nil) }
            defer { state.current = disposable }
            return (false, state.current)
        }
        _ = previous  // released after unlocking, not disposed (see above)
        if rejected { disposable.dispose() }
    }

    public func dispose() {
        let current = state.withLock { state -> (any Disposable)? in
            if state.isDisposed { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
