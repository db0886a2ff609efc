/// What `Property` and `MutableProperty` share: a current value and a stream of it (the
/// current value, then each change). Combining operators take either
/// (`Property.combineLatest(items, filter, query)` with mutable and read-only properties mixed).
public protocol PropertyProtocol<Value>: Sendable {
    associatedtype Value: Sendable
    /// The current value.
    var value: Value { get }
    /// The current value when subscribed, then each change.
    var signal: Signal<Value, Never> { get }
    /// A read-only view of this property.
    var readOnly: Property<Value> { get }
}

extension Property: PropertyProtocol {
    /// This property (it is read-only already).
    public var readOnly: Property<Value> { self }
}

extension MutableProperty: PropertyProtocol {}

extension Property {
    /// A property holding the three properties' values, made once per change of any of them.
    public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: some PropertyProtocol<A>, _ b: some PropertyProtocol<B>, _ c: some PropertyProtocol<C>
    ) -> Property<(A, B, C)> where Value == (A, B, C) {
        let a = a.readOnly, b = b.readOnly, c = c.readOnly
        return Property(
            deriving: a.signal.combineLatest(b.signal, c.signal),
            current: { (a.value, b.value, c.value) },
            keeping: [a, b, c] as [any Sendable]
        )
    }

    /// A property combining the three properties' values with `transform`, which runs once per
    /// change of any of them.
    ///
    /// ```swift
    /// let visible = Property.combineLatest(items, filter, query) { items, filter, query in
    ///     items.filter { filter.includes($0) && $0.title.contains(query) }
    /// }
    /// ```
    public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: some PropertyProtocol<A>, _ b: some PropertyProtocol<B>, _ c: some PropertyProtocol<C>,
        _ transform: @escaping @Sendable (A, B, C) -> Value
    ) -> Property<Value> {
        // One derived property (not one of triples and one mapped from it), and one map of the
        // nested pairs: the to-do's visible rows, derived in each of a thousand tabs.
        let a = a.readOnly, b = b.readOnly, c = c.readOnly
        return Property(
            deriving: a.signal.combineLatest(b.signal).combineLatest(c.signal).map { transform($0.0, $0.1, $1) },
            current: { transform(a.value, b.value, c.value) },
            keeping: [a, b, c] as [any Sendable]
        )
    }

    /// A property combining the two properties' values with `transform`
    /// (`Property.combineLatest(a, b) { … }`, the same as `a.combineLatest(b) { … }`).
    public static func combineLatest<A: Sendable, B: Sendable>(
        _ a: some PropertyProtocol<A>, _ b: some PropertyProtocol<B>,
        _ transform: @escaping @Sendable (A, B) -> Value
    ) -> Property<Value> {
        a.readOnly.combineLatest(b.readOnly, transform)
    }
}

extension Property {
    /// A property holding any number of properties' values as a tuple, made once per change of
    /// any of them (RxSwift's `combineLatest` of up to eight, and beyond). Up to three, the
    /// fixed-arity overloads are chosen; `map` the tuple to derive one value:
    ///
    /// ```swift
    /// let canSend = Property.combineLatest(name, email, age, terms).map { name, email, age, terms in
    ///     !name.isEmpty && email.contains("@") && age >= 18 && terms
    /// }
    /// ```
    public static func combineLatest<each Part: PropertyProtocol>(
        _ properties: repeat each Part
    ) -> Property<(repeat (each Part).Value)> where Value == (repeat (each Part).Value) {
        var signals: [Signal<any Sendable, Never>] = []
        var reads: [@Sendable () -> any Sendable] = []
        var kept: [any Sendable] = []
        for property in repeat each properties {
            let property = property.readOnly
            signals.append(property.signal.map { $0 as any Sendable })
            reads.append { property.value }
            kept.append(property)
        }
        let current = reads
        return Property(
            deriving: Signal<[any Sendable], Never>.combineLatest(signals).map { values in
                var reader = ValuesReader(values)
                return (repeat reader.next((each Part).Value.self))
            },
            current: {
                var reader = ValuesReader(current.map { $0() })
                return (repeat reader.next((each Part).Value.self))
            },
            keeping: kept
        )
    }
}

extension Property where Value: Equatable {
    /// This property, with observers told only of changes to a different value: setting the
    /// same value again is not a change. `value` is always the current one.
    public func removeDuplicates() -> Property<Value> {
        Property(deriving: signal.removeDuplicates(), current: { [self] in value }, keeping: self)
    }
}

// A MutableProperty derives as a Property does, without spelling `.readOnly` first: a view
// model writes `query.map { … }` and `query.combineLatest(filter)`.
extension MutableProperty {
    /// A read-only property derived from this one's value, made once per change.
    public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Property<NewValue> {
        readOnly.map(transform)
    }

    /// A read-only property derived from a key path of this one's value.
    public func map<NewValue: Sendable>(_ keyPath: any KeyPath<Value, NewValue> & Sendable) -> Property<NewValue> {
        readOnly.map(keyPath)
    }

    /// A read-only property holding the pair of this one's value and `other`'s.
    public func combineLatest<Other: Sendable>(_ other: some PropertyProtocol<Other>) -> Property<(Value, Other)> {
        readOnly.combineLatest(other.readOnly)
    }

    /// A read-only property combining this one's value and `other`'s with `transform`.
    public func combineLatest<Other: Sendable, Result: Sendable>(
        _ other: some PropertyProtocol<Other>,
        _ transform: @escaping @Sendable (Value, Other) -> Result
    ) -> Property<Result> {
        readOnly.combineLatest(other.readOnly, transform)
    }
}

extension MutableProperty where Value: Equatable {
    /// A read-only view of this property whose observers are told only of changes to a
    /// different value.
    public func removeDuplicates() -> Property<Value> {
        readOnly.removeDuplicates()
    }
}
