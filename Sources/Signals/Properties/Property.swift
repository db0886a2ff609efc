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

    /// A read-only view of `property`; it keeps `property` alive. (`property.readOnly` is the
    /// same view without a new object each time.)
    public convenience init(_ property: MutableProperty<Value>) {
        self.init(read: { property.value }, signal: property.signal, owned: property)
    }

    /// The view behind `MutableProperty.readOnly`: it reads `subject` and keeps `lifetime`, which
    /// completes `subject` once neither the mutable property nor this view is left.
    init(viewing subject: BehaviorSubject<Value, Never>, keeping lifetime: any Sendable) {
        self.read = { subject.value }
        self.signal = subject.signal
        self.owned = lifetime
    }

    /// A property whose `value` is `read()`, computed at each read, and whose `signal` is
    /// `signal` (the current value, then every change): for the toolkit's own state whose
    /// reads must be exact at every moment (an action's `isEnabled`, a list's `isLoading`),
    /// where a derived property's cache would lag behind a change still being delivered.
    /// `read` must be cheap, lock-free or take only short internal locks, and run no user code.
    package convenience init(
        reading read: @escaping @Sendable () -> Value,
        signal: Signal<Value, Never>,
        keeping owned: any Sendable
    ) {
        self.init(read: read, signal: signal, owned: owned)
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

    /// A property that holds the latest value of `values`, a stream that starts with the
    /// current value when subscribed (as every property's `signal` does), computed upstream.
    ///
    /// It subscribes once, at once, and keeps `upstream` alive; reads return the cached value.
    /// `current` is called only if the first value does not arrive during the subscription (a
    /// property derived from inside an observer of its source, where that value waits its turn).
    convenience init(
        deriving values: Signal<Value, Never>,
        current: @escaping @Sendable () -> Value,
        keeping upstream: any Sendable
    ) {
        let cache = DerivedValue<Value>()
        let subscription = values.subscribe(Observer(
            value: { cache.receive($0) },
            completion: { _ in cache.complete() }
        ))
        cache.settle(current)
        let owner = DerivedSubscription(subscription, cache, upstream)
        // Each subscription to the signal keeps the derivation alive until it is disposed, so
        // `property.map { … }.signal` works when the derived property itself is a temporary
        // (otherwise it would complete as soon as the expression ends).
        let values = cache.signal
        let signal = Signal<Value, Never>(unchecked: { observer in
            let subscription = values.subscribe(observer)
            return AnyDisposable {
                subscription.dispose()
                withExtendedLifetime(owner) {}
            }
        })
        self.init(read: { cache.value }, signal: signal, owned: owner)
    }

    /// A property whose value is `transform` of this one's.
    ///
    /// ```swift
    /// let isValid = email.map { $0.contains("@") }
    /// ```
    ///
    /// `transform` runs once for the current value and once for each change, on the thread
    /// that made the change and with no lock held; reading `value` or observing returns the
    /// cached result. (A change made from inside an observer of this property waits its turn
    /// like any re-entrant send: until it has been delivered, `value` is the previous result.)
    public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Property<NewValue> {
        Property<NewValue>(deriving: signal.map(transform), current: { [self] in transform(value) }, keeping: self)
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
    ///
    /// As with `map`, the pair is made once per change and cached.
    public func combineLatest<Other: Sendable>(_ other: some PropertyProtocol<Other>) -> Property<(Value, Other)> {
        let other = other.readOnly
        return Property<(Value, Other)>(
            deriving: signal.combineLatest(other.signal),
            current: { [self] in (value, other.value) },
            keeping: [self, other] as [any Sendable]
        )
    }

    /// A property combining this one's value and `other`'s with `transform`, which runs once
    /// per change of either.
    public func combineLatest<Other: Sendable, Result: Sendable>(
        _ other: some PropertyProtocol<Other>,
        _ transform: @escaping @Sendable (Value, Other) -> Result
    ) -> Property<Result> {
        // One derived property, not a property of pairs and a property mapped from it: each
        // change goes through one cache, not two (a thousand tabs' view models each derive one).
        let other = other.readOnly
        return Property<Result>(
            deriving: signal.combineLatest(other.signal).map { transform($0, $1) },
            current: { [self] in transform(value, other.value) },
            keeping: [self, other] as [any Sendable]
        )
    }

    /// A property holding the values of every property in `properties`, in order, made once
    /// per change of any of them.
    public static func combineLatest<Element: Sendable>(_ properties: [Property<Element>]) -> Property<[Element]>
    where Value == [Element] {
        Property<[Element]>(
            deriving: properties.isEmpty ? .just([]) : Signal<[Element], Never>.combineLatest(properties.map(\.signal)),
            current: { properties.map(\.value) },
            keeping: properties
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

/// The cache of a derived property: the latest value its upstream delivered, and a one-value
/// replay for its observers (so a late observer gets the value first, also after completion).
///
/// Values arrive one at a time, in order (upstream delivers serially). The lock guards only the
/// cached value and the state; no transform or observer runs under it.
private final class DerivedValue<Value: Sendable>: Sendable {
    private struct State {
        var latest: Value?
        /// Whether `settle` has published the first value; before, arrivals are only kept.
        var isSettled = false
        /// Upstream completed before `settle`.
        var completedEarly = false
        /// Set when `settle` had to compute the first value: the first arrival afterwards may be
        /// older than it (a replay queued behind a newer change), so it is replaced by a fresh
        /// computation, never by an older value.
        var refreshFirstArrival: (@Sendable () -> Value)?
    }

    private let state = Locked(State())
    private let subject = ReplaySubject<Value, Never>(bufferSize: 1)

    /// The cached value (always there once the property exists).
    var value: Value { state.withLock { $0.latest! } }

    /// The cached value, then every change.
    var signal: Signal<Value, Never> { subject.signal }

    func receive(_ value: Value) {
        let (publish, refresh) = state.withLock { state -> (Bool, (@Sendable () -> Value)?) in
            if let refresh = state.refreshFirstArrival {
                state.refreshFirstArrival = nil
                return (true, refresh)
            }
            state.latest = value
            return (state.isSettled, nil)
        }
        if let refresh {
            // Computed with no lock held; values arrive one at a time, so nothing overtakes it.
            let fresh = refresh()
            state.withLock { $0.latest = fresh }
            subject.send(fresh)
        } else if publish {
            subject.send(value)
        }
    }

    func complete() {
        let publish = state.withLock { state -> Bool in
            if !state.isSettled { state.completedEarly = true }
            return state.isSettled
        }
        if publish { subject.sendCompleted() }
    }

    /// Publishes the first value: what arrived during the subscription, or else `current()`
    /// (computed with no lock held). Called once, before the property is handed out.
    func settle(_ current: @escaping @Sendable () -> Value) {
        let arrived = state.withLock { $0.latest != nil }
        let computed = arrived ? nil : current()
        let completed = state.withLock { state -> Bool in
            if state.latest == nil {
                state.latest = computed
                state.refreshFirstArrival = current
            }
            state.isSettled = true
            // Nobody can have subscribed yet (the property does not exist), so this send
            // calls no observer; it runs under the lock so that no later value overtakes it.
            subject.send(state.latest!)
            return state.completedEarly
        }
        if completed { subject.sendCompleted() }
    }
}

/// Ends a derived property's upstream subscription and completes its observers when the
/// property goes; keeps the upstream properties alive until then.
private final class DerivedSubscription<Value: Sendable>: Sendable {
    let subscription: any Disposable
    let cache: DerivedValue<Value>
    let upstream: any Sendable

    init(_ subscription: any Disposable, _ cache: DerivedValue<Value>, _ upstream: any Sendable) {
        self.subscription = subscription
        self.cache = cache
        self.upstream = upstream
    }

    deinit {
        subscription.dispose()
        cache.complete()
    }
}
