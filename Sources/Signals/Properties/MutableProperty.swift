/// A value that can be read, set and observed: observing gives the current value, then every
/// change (ReactiveSwift's `MutableProperty`, RxSwift's `BehaviorRelay`).
///
/// ```text
/// set:      -b-c      (initial value a)
/// signal:   ab-c
/// changes:  -b-c
/// ```
///
/// Setting is thread-safe and `value` reflects a set as soon as it returns. A property never
/// fails; its streams complete when the property is deinitialised (and its `readOnly` view,
/// if anyone still holds it).
public final class MutableProperty<Value: Sendable>: Sendable {
    @usableFromInline
    let subject: BehaviorSubject<Value, Never>
    /// Completes `subject` when neither this property nor its read-only view is left.
    private let lifetime: PropertyLifetime<Value>
    /// The read-only view, made at its first use.
    private let view = Locked<Property<Value>?>(nil)

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        subject = BehaviorSubject(value)
        lifetime = PropertyLifetime(subject)
    }

    /// The current value. Setting it notifies every observer.
    @inlinable
    public var value: Value {
        get { subject.value }
        set { subject.send(newValue) }
    }

    /// Changes the value in place, atomically, and notifies observers once. Returns what `body`
    /// returns.
    ///
    /// `body` runs with no lock held, so it may read this property; if another thread sets the
    /// property meanwhile, `body` runs again on the newer value (keep it free of side effects).
    /// Setting this property from inside `body` stops the program with a message saying so.
    ///
    /// ```swift
    /// history.modify { $0.insert(entry, at: 0) }
    /// ```
    @discardableResult
    @inlinable
    public func modify<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        subject.modify(body)
    }

    /// Changes the value in place, atomically, only if `body` returns `true`, and notifies
    /// observers only then (``modify(_:)`` notifies every time). `body` runs with no lock held,
    /// perhaps more than once; keep it free of side effects. Returns whether it changed.
    package func update(_ body: (inout Value) -> Bool) -> Bool {
        subject.update(body)
    }

    /// The current value, then every change.
    @inlinable
    public var signal: Signal<Value, Never> { subject.signal }

    /// Every change from now on, without the current value.
    public var changes: Signal<Value, Never> { subject.signal.dropFirst() }

    /// The read-only view of this property: one object, the same at every access.
    ///
    /// The view does not keep this object alive (it would never be freed), but it keeps the
    /// value and the streams: while anyone holds the view, its streams stay open; they complete
    /// once neither this property nor the view is left.
    public var readOnly: Property<Value> {
        view.withLock { view in
            if let view { return view }
            let made = Property(viewing: subject, keeping: lifetime)
            view = made
            return made
        }
    }

    /// An observer that sets the value; its completion is ignored. Use it to bind a stream
    /// into the property: `stream.subscribe(property.observer)`.
    public var observer: Observer<Value, Never> {
        Observer(value: { [subject] in subject.send($0) })
    }

}

/// Completes a mutable property's subject when the last of its owners (the property and its
/// read-only view) goes.
private final class PropertyLifetime<Value: Sendable>: Sendable {
    let subject: BehaviorSubject<Value, Never>

    init(_ subject: BehaviorSubject<Value, Never>) {
        self.subject = subject
    }

    deinit {
        subject.sendCompleted()
    }
}
