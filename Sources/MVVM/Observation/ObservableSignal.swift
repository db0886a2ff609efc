import Dispatch
import Observation
import Signals

/// Observes a property of an `@Observable` object as a stream (ReactiveCocoa's `RACObserve`),
/// with Swift's Observation instead of Objective-C, so it works on Linux and the same view
/// models suit SwiftUI on Apple platforms.
///
/// ```swift
/// @MainActor @Observable final class SearchViewModel { var searchText = "" }
///
/// observation(of: viewModel, \.searchText)
///     .map { $0.count > 3 }
///     .bind(to: goButton.isEnabledTarget)
/// ```
///
/// The stream emits the current value when subscribed, then the value after each change, on the
/// main actor. **Coalescing:** changes made in one main-actor turn are delivered once, as the
/// value at the end of the turn (Observation reports that *a* change is coming, not each one).
/// Values equal to the last delivered one are still delivered (add `removeDuplicates()` to drop
/// them). The stream completes when the object is deinitialised if it is a ``LifetimeOwner``
/// (give view models a `Lifetime.Token`). Observation has no hook for deinitialisation, so for
/// other objects the stream cannot see the object go: it holds it weakly and ends only when
/// disposed.
@MainActor
public func observation<Root: Observable & AnyObject & SendableMetatype, Value: Sendable>(
    of root: Root,
    _ keyPath: KeyPath<Root, Value>
) -> Signal<Value, Never> {
    let source = ObservationSource(root: root, keyPath: keyPath)
    let lifetime = (root as? LifetimeOwner)?.lifetime
    return Signal { observer in
        let subscription = ObservationSubscription(source: source, observer: observer)
        let ended = lifetime?.observeEnded { subscription.complete() }
        subscription.start()
        return AnyDisposable {
            ended?.dispose()
            subscription.cancel()
        }
    }
}

/// What is observed: the object (weakly) and the key path, read on the main actor.
@MainActor
final class ObservationSource<Root: AnyObject, Value: Sendable>: Sendable {
    private weak var root: Root?
    private let keyPath: KeyPath<Root, Value>

    init(root: Root, keyPath: KeyPath<Root, Value>) {
        self.root = root
        self.keyPath = keyPath
    }

    /// The current value, or `nil` once the object has gone.
    func read() -> Value? {
        guard let root else { return nil }
        return root[keyPath: keyPath]
    }
}

/// One subscription: tracks the property, re-tracking after each change.
final class ObservationSubscription<Root: AnyObject, Value: Sendable>: Sendable {
    private let source: ObservationSource<Root, Value>
    private let observer: Observer<Value, Never>
    private let state = Locked((cancelled: false, rereadPending: false))

    init(source: ObservationSource<Root, Value>, observer: Observer<Value, Never>) {
        self.source = source
        self.observer = observer
    }

    /// Starts tracking on the main actor (at once if already there).
    func start() {
        MainScheduler.runOnMainActor { self.track() }
    }

    @MainActor
    private func track() {
        if state.value.cancelled { return }
        let value = withObservationTracking {
            source.read()
        } onChange: { [self] in
            // Called before the change is applied: read after it, once per turn.
            let schedule = state.withLock { state -> Bool in
                if state.cancelled || state.rereadPending { return false }
                state.rereadPending = true
                return true
            }
            if schedule {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        self.state.withLock { $0.rereadPending = false }
                        self.track()
                    }
                }
            }
        }
        guard let value else {
            complete()
            return
        }
        observer.send(value)
    }

    func complete() {
        let first = state.withLock { state -> Bool in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        if first { observer.sendCompleted() }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
    }
}

extension Signal where Failure == Never {
    /// Sets `root[keyPath:]` to every value, on the main actor, until the stream ends or the
    /// object goes away (at once if it is a ``LifetimeOwner``, otherwise at the next value); the
    /// object is held weakly. Use it to drive a property of an `@Observable` view model or of a
    /// view from a stream.
    @MainActor
    @discardableResult
    public func bind<Root: AnyObject>(
        to root: Root,
        _ keyPath: ReferenceWritableKeyPath<Root, Value>
    ) -> any Disposable {
        let source = (root as? LifetimeOwner).map { take(during: $0.lifetime) } ?? self
        return source.deliverOnMainActor(MainActorReceiver { [weak root] value in
            guard let root else { return false }
            root[keyPath: keyPath] = value
            return true
        })
    }

    /// Calls `body` with every value, on the main actor, until the stream ends or `owner` goes:
    /// how a view layer whose widgets live on the main actor delivers a binding's values
    /// (`BindableControl.receive`).
    @MainActor
    @discardableResult
    public func receive(onMainActorDuring owner: some LifetimeOwner, _ body: @escaping (Value) -> Void) -> any Disposable {
        take(during: owner.lifetime).deliverOnMainActor(MainActorReceiver { body($0); return true })
    }

    /// A driver's delivery (a main scheduler of its own: in order, at once when on the main
    /// thread with nothing of this subscription waiting), without its sharing: a binding has one
    /// subscriber, and a browser tab has dozens of bindings (issue 41: memory per tab).
    private func deliverOnMainActor(_ receiver: MainActorReceiver<Value>) -> any Disposable {
        let subscription = SerialDisposable()
        let scheduler = MainScheduler()
        subscription.inner = subscribe(Observer(value: { value in
            scheduler.schedule {
                MainActor.assumeIsolated {
                    if !subscription.isDisposed && !receiver.receive(value) { subscription.dispose() }
                }
            }
        }))
        return subscription
    }
}

/// What a main-actor subscription does with each value; `false` once its target has gone.
@MainActor
final class MainActorReceiver<Value: Sendable>: Sendable {
    private let body: (Value) -> Bool

    init(_ body: @escaping (Value) -> Bool) {
        self.body = body
    }

    func receive(_ value: Value) -> Bool {
        body(value)
    }
}
