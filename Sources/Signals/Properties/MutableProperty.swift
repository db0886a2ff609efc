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
/// fails; its streams complete when the property is deinitialised.
public final class MutableProperty<Value: Sendable>: Sendable {
    @usableFromInline
    let subject: BehaviorSubject<Value, Never>

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        subject = BehaviorSubject(value)
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
    /// ```swift
    /// history.modify { $0.insert(entry, at: 0) }
    /// ```
    @discardableResult
    @inlinable
    public func modify<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        subject.modify(body)
    }

    /// The current value, then every change.
    @inlinable
    public var signal: Signal<Value, Never> { subject.signal }

    /// Every change from now on, without the current value.
    public var changes: Signal<Value, Never> { subject.signal.dropFirst() }

    /// A read-only view of this property.
    public var readOnly: Property<Value> { Property(self) }

    /// An observer that sets the value; its completion is ignored. Use it to bind a stream
    /// into the property: `stream.subscribe(property.observer)`.
    public var observer: Observer<Value, Never> {
        Observer(value: { [subject] in subject.send($0) })
    }

    deinit {
        subject.sendCompleted()
    }
}
