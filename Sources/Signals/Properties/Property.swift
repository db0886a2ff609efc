/// A read-only value that always has a current value and can be observed: observing gives the
/// current value, then every change.
///
/// Expose a `Property` from a view model where the view may read and observe but not set:
///
/// ```swift
/// private let _isValid = MutableProperty(false)
/// var isValid: Property<Bool> { _isValid.readOnly }
/// ```
public final class Property<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value
    /// The current value, then every change.
    public let signal: Signal<Value, Never>
    private let owned: (any Sendable)?

    private init(read: @escaping @Sendable () -> Value, signal: Signal<Value, Never>, owned: (any Sendable)?) {
        self.read = read
        self.signal = signal
        self.owned = owned
    }

    /// The current value.
    public var value: Value { read() }

    /// Every change from now on, without the current value.
    public var changes: Signal<Value, Never> { signal.dropFirst() }

    /// A read-only view of `property`; it keeps `property` alive.
    public convenience init(_ property: MutableProperty<Value>) {
        self.init(read: { property.value }, signal: property.signal, owned: property)
    }

    /// A property that never changes.
    public convenience init(value: Value) {
        self.init(read: { value }, signal: .just(value), owned: nil)
    }

    /// A property that starts at `initial` and takes every value of `values`.
    ///
    /// It subscribes at once and stays subscribed for its own lifetime; its streams complete
    /// when `values` completes or when the property is deinitialised.
    public convenience init(initial: Value, then values: Signal<Value, Never>) {
        let storage = BehaviorSubject<Value, Never>(initial)
        let subscription = values.subscribe(storage.observer)
        self.init(read: { storage.value }, signal: storage.signal, owned: PropertySubscription(subscription, storage))
    }

    /// A property whose value is `transform` of this one's. `transform` runs when the value is
    /// read and for each change observed.
    public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Property<NewValue> {
        Property<NewValue>(read: { [self] in transform(self.value) }, signal: signal.map(transform), owned: self)
    }

    /// A property derived from a key path of this one's value.
    public func map<NewValue: Sendable>(_ keyPath: any KeyPath<Value, NewValue> & Sendable) -> Property<NewValue> {
        map { $0[keyPath: keyPath] }
    }

    /// A property holding the pair of this one's value and `other`'s, changing when either
    /// changes.
    ///
    /// ```swift
    /// let canLogIn = userName.combineLatest(password).map { $0.count >= 3 && $1.count >= 3 }
    /// ```
    public func combineLatest<Other: Sendable>(_ other: Property<Other>) -> Property<(Value, Other)> {
        Property<(Value, Other)>(
            read: { [self] in (self.value, other.value) },
            signal: signal.combineLatest(other.signal),
            owned: [self, other] as [any Sendable]
        )
    }

    /// A property combining this one's value and `other`'s with `transform`.
    public func combineLatest<Other: Sendable, Result: Sendable>(
        _ other: Property<Other>,
        _ transform: @escaping @Sendable (Value, Other) -> Result
    ) -> Property<Result> {
        combineLatest(other).map(transform)
    }

    /// A property holding the values of every property in `properties`, in order.
    public static func combineLatest<Element: Sendable>(_ properties: [Property<Element>]) -> Property<[Element]>
    where Value == [Element] {
        Property<[Element]>(
            read: { properties.map(\.value) },
            signal: properties.isEmpty ? .just([]) : Signal<[Element], Never>.combineLatest(properties.map(\.signal)),
            owned: properties
        )
    }
}

/// Ends a property's input subscription and completes its observers when the property goes.
private final class PropertySubscription<Value: Sendable>: Sendable {
    let subscription: any Disposable
    let storage: BehaviorSubject<Value, Never>

    init(_ subscription: any Disposable, _ storage: BehaviorSubject<Value, Never>) {
        self.subscription = subscription
        self.storage = storage
    }

    deinit {
        subscription.dispose()
        storage.sendCompleted()
    }
}
