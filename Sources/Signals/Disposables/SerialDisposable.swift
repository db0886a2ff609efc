import Synchronization

/// Holds one disposable at a time: setting a new one disposes the previous one.
///
/// Once the serial disposable itself is disposed, its current disposable is disposed and any
/// disposable assigned later is disposed at once.
public final class SerialDisposable: Disposable {
    private let slot = DisposableSlot()

    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        slot.isDisposed
    }

    /// The current disposable. Setting it disposes the previous one (outside any lock).
    public var inner: (any Disposable)? {
        get { slot.current }
        set {
            if let newValue { slot.replace(with: newValue, disposingPrevious: true) } else { slot.clear() }
        }
    }

    public func dispose() {
        slot.dispose()
    }
}

/// One disposable at a time behind a lock, and whether the holder was disposed: the state of
/// ``SerialDisposable``, one allocation (the lock's) beside its owner. (A subscription link keeps
/// the same state in its own fields, with its lock inline.)
///
/// The disposable is kept as a plain existential with a flag, never as an optional one: copying
/// and destroying `(any Disposable)?` goes through `Optional`'s generic value witnesses, several
/// calls deep, on every subscription that passes through a link.
@usableFromInline
struct DisposableSlot: Sendable {
    private struct State {
        var current: any Disposable = NopDisposable()
        var isSet = false
        var isDisposed = false
    }

    private let state = Locked(State())

    @usableFromInline
    init() {}

    @usableFromInline
    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    var current: (any Disposable)? {
        state.withLock { $0.isSet ? $0.current : nil }
    }

    /// Sets the current disposable, disposing the previous one if `disposingPrevious` (else it
    /// is only released), and disposes `disposable` at once if the holder is disposed. Disposals
    /// and releases run after unlocking.
    @usableFromInline
    func replace(with disposable: any Disposable, disposingPrevious: Bool) {
        // The previous one is moved out under the lock and released, or disposed, after it.
        var previous: any Disposable = NopDisposable()
        let accepted = state.withLock { state -> Bool in
            if state.isDisposed { return false }
            state.isSet = true
            Self.move(&state.current, to: &previous, replacingWith: disposable)
            return true
        }
        if !accepted { disposable.dispose() } else if disposingPrevious { previous.dispose() }
    }

    /// Empties the slot, disposing what it held.
    func clear() {
        var previous: any Disposable = NopDisposable()
        state.withLock { state in
            Self.move(&state.current, to: &previous, replacingWith: NopDisposable())
            state.isSet = false
        }
        previous.dispose()
    }

    /// Moves `held` into `out` (which holds a `NopDisposable`) and puts `replacement` in its
    /// place: a move and a copy of the existential, nothing of the caller's destroyed, so it may
    /// run under the lock (an assignment would destroy the old value there, through its value
    /// witness).
    static func move(_ held: inout any Disposable, to out: inout any Disposable, replacingWith replacement: any Disposable) {
        withUnsafeMutablePointer(to: &out) { out in
            withUnsafeMutablePointer(to: &held) { held in
                out.deinitialize(count: 1)
                out.moveInitialize(from: held, count: 1)
                held.initialize(to: replacement)
            }
        }
    }

    /// Moves `held` into `out` (which holds a `NopDisposable`), `incoming` into `held`, and
    /// leaves a `NopDisposable` in `incoming`: three moves, no copy, so nothing is retained, and
    /// nothing of the caller's is destroyed (it may run under a lock).
    static func rotate(_ incoming: inout any Disposable, into held: inout any Disposable, out: inout any Disposable) {
        withUnsafeMutablePointer(to: &out) { out in
            withUnsafeMutablePointer(to: &held) { held in
                withUnsafeMutablePointer(to: &incoming) { incoming in
                    out.deinitialize(count: 1)
                    out.moveInitialize(from: held, count: 1)
                    held.moveInitialize(from: incoming, count: 1)
                    incoming.initialize(to: NopDisposable())
                }
            }
        }
    }

    /// Disposes the current disposable and every later one (once).
    @usableFromInline
    func dispose() {
        var current: any Disposable = NopDisposable()
        state.withLock { state in
            if state.isDisposed { return }
            state.isDisposed = true
            Self.move(&state.current, to: &current, replacingWith: NopDisposable())
            state.isSet = false
        }
        current.dispose()
    }
}
