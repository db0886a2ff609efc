import Signals

/// Whether a view model's screen is on display, with streams for the moments it appears and
/// disappears (ReactiveViewModel's `active`, `didBecomeActiveSignal`).
///
/// The view layer calls `activate()` when the screen appears and `deactivate()` when it goes
/// away; the view model reloads on `didBecomeActive` or limits work with
/// `forward(whileActive:)`:
///
/// ```swift
/// lifecycle.didBecomeActive.sink { [weak self] in self?.reload() }
/// ```
public final class ViewModelLifecycle: Sendable {
    private let active = MutableProperty(false)

    /// Creates an inactive lifecycle.
    public init() {}

    /// Whether the view model is active: `false` until `activate()`.
    public var isActive: Property<Bool> { active.readOnly }

    /// Marks the view model active (its screen appeared). Does nothing if already active.
    public func activate() {
        set(active: true)
    }

    /// Marks the view model inactive (its screen went away). Does nothing if already inactive.
    public func deactivate() {
        set(active: false)
    }

    /// A compare-and-set: observers of `isActive` see only changes, never a repeat.
    private func set(active isActive: Bool) {
        _ = active.update { current in
            guard current != isActive else { return false }
            current = isActive
            return true
        }
    }

    /// Emits each time the view model becomes active (not for the initial state).
    public var didBecomeActive: Signal<Void, Never> {
        active.signal.removeDuplicates().dropFirst().filter { $0 }.map { _ in () }
    }

    /// Emits each time the view model becomes inactive (not for the initial state).
    public var didBecomeInactive: Signal<Void, Never> {
        active.signal.removeDuplicates().dropFirst().filter { !$0 }.map { _ in () }
    }
}

extension Signal {
    /// Subscribes to this stream only while `lifecycle` is active: it is subscribed when the view
    /// model becomes active and disposed when it becomes inactive, then subscribed again on the
    /// next activation (ReactiveViewModel's `forwardSignalWhileActive`).
    ///
    /// ```text
    /// active:       -T---F-T---
    /// self:         ab-c-d-e-f-|   (hot)
    /// whileActive:  -b-c---e-f-|
    /// ```
    ///
    /// The result ends when this stream ends (while subscribed).
    public func forward(whileActive lifecycle: ViewModelLifecycle) -> Signal {
        let events: Signal<Event<Value, Failure>, Never> = lifecycle.isActive.signal
            .removeDuplicates()
            .flatMapLatest { isActive in isActive ? self.materialize() : .never }
        return events.dematerialize()
    }
}

extension Signal {
    /// Ends this stream (completing it, and disposing its source) when `lifecycle` becomes
    /// inactive: work a screen started stops when the user leaves it (a search, a login, a
    /// page load), and its answer never arrives.
    ///
    /// ```text
    /// active:         T---F--
    /// self:           -a---b-|
    /// untilInactive:  -a--|
    /// ```
    ///
    /// Only the change to inactive ends it: a stream subscribed while the view model is
    /// inactive (a headless test that never shows it) runs until it ends by itself or the next
    /// time the view model leaves the screen.
    public func take(untilInactive lifecycle: ViewModelLifecycle) -> Signal {
        prefix(untilOutputFrom: lifecycle.didBecomeInactive)
    }
}
