import Synchronization

/// A group of disposables disposed together.
///
/// A disposable added after the group was disposed is disposed at once. Disposals run with no
/// lock held, in the order the disposables were added.
public final class CompositeDisposable: Disposable {
    private struct State {
        var disposables: [any Disposable]? = []
    }

    private let state: Locked<State>

    /// Creates a group holding `disposables`.
    public init(_ disposables: [any Disposable] = []) {
        state = Locked(State(disposables: disposables))
    }

    /// Creates a group holding `disposables`.
    public convenience init(_ disposables: any Disposable...) {
        self.init(disposables)
    }

    /// Whether the group has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.disposables == nil }
    }

    /// How many disposables the group holds; 0 once disposed.
    public var count: Int {
        state.withLock { $0.disposables?.count ?? 0 }
    }

    /// Adds a disposable; disposes it at once if the group is already disposed.
    public func add(_ disposable: any Disposable) {
        let added = state.withLock { state -> Bool in
            guard state.disposables != nil else { return false }
            state.disposables!.append(disposable)
            return true
        }
        if !added { disposable.dispose() }
    }

    /// Adds a closure to run when the group is disposed.
    public func add(_ action: @escaping @Sendable () -> Void) {
        add(AnyDisposable(action))
    }

    public func dispose() {
        let disposables = state.withLock { state -> [any Disposable] in
            defer { state.disposables = nil }
            return state.disposables ?? []
        }
        for disposable in disposables { disposable.dispose() }
    }

    /// Adds a disposable: `composite += signal.sink { … }`.
    public static func += (composite: CompositeDisposable, disposable: any Disposable) {
        composite.add(disposable)
    }
}
