import Synchronization

/// Holds disposables and disposes them all when the bag is deinitialised.
///
/// Give a view model or a view one bag; the subscriptions it owns end when it goes away:
///
/// ```swift
/// viewModel.title.sink { label.text = $0 }.disposed(by: bag)
/// ```
public final class DisposeBag: Sendable {
    private let disposables = Locked<[any Disposable]?>([])

    public init() {}

    /// Adds a disposable. If the bag was already emptied with `dispose()`, it is disposed at once.
    public func insert(_ disposable: any Disposable) {
        let added = disposables.withLock { list -> Bool in
            guard list != nil else { return false }
            list!.append(disposable)
            return true
        }
        if !added { disposable.dispose() }
    }

    /// How many disposables the bag holds.
    public var count: Int {
        disposables.withLock { $0?.count ?? 0 }
    }

    /// Disposes everything in the bag now; later insertions are disposed at once.
    public func dispose() {
        let list = disposables.withLock { list -> [any Disposable] in
            defer { list = nil }
            return list ?? []
        }
        for disposable in list { disposable.dispose() }
    }

    deinit {
        let list = disposables.withLock { list -> [any Disposable] in
            defer { list = nil }
            return list ?? []
        }
        for disposable in list { disposable.dispose() }
    }
}
