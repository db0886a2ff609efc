import MVVM
import Observation
import Signals

/// A value a screen shows that follows a view model: read it now, or observe it (its current
/// value, then every change).
///
/// Unlike `Property.map`, which subscribes at once and caches, `Live.map` is lazy: making a
/// screen description subscribes to nothing, and a renderer subscribes only while it shows the
/// screen. Reading `value` runs the transforms on the current value.
public struct Live<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value
    /// The current value, then every change (cold: each subscription starts with the value now).
    public let signal: Signal<Value, Never>
    /// Whether the value never changes (``constant(_:)``, or a map of one): a renderer need not
    /// follow it, and keeps nothing for it.
    public let isConstant: Bool

    /// A value that follows `read` and whose changes `signal` sends.
    public init(read: @escaping @Sendable () -> Value, signal: Signal<Value, Never>) {
        self.init(read: read, signal: signal, isConstant: false)
    }

    private init(read: @escaping @Sendable () -> Value, signal: Signal<Value, Never>, isConstant: Bool) {
        self.read = read
        self.signal = signal
        self.isConstant = isConstant
    }

    /// A value that follows a property.
    public init(_ property: Property<Value>) {
        self.init(read: { property.value }, signal: property.signal)
    }

    /// A value that follows a mutable property.
    public init(_ property: MutableProperty<Value>) {
        self.init(read: { property.value }, signal: property.signal)
    }

    /// A value that never changes.
    public static func constant(_ value: Value) -> Live {
        Live(read: { value }, signal: .just(value), isConstant: true)
    }

    /// The value now.
    public var value: Value { read() }

    /// The value through `transform`, computed at each read and for each change.
    public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Live<NewValue> {
        if isConstant { return .constant(transform(read())) }
        let read = self.read
        return Live<NewValue>(read: { transform(read()) }, signal: signal.map(transform))
    }

    /// This value and `other`'s, combined by `transform`.
    public func combine<Other: Sendable, Result: Sendable>(
        _ other: Live<Other>, _ transform: @escaping @Sendable (Value, Other) -> Result
    ) -> Live<Result> {
        let read = self.read
        return Live<Result>(read: { transform(read(), other.value) }, signal: signal.combineLatest(other.signal).map(transform))
    }
}

/// What a screen's vocabulary accepts where a value may change: a `Property`, a
/// `MutableProperty` or a ``Live`` value.
public protocol LiveConvertible<Value>: Sendable {
    associatedtype Value: Sendable
    var live: Live<Value> { get }
}

extension Live: LiveConvertible {
    public var live: Live<Value> { self }
}

extension Property: LiveConvertible {
    public var live: Live<Value> { Live(self) }
}

extension MutableProperty: LiveConvertible {
    public var live: Live<Value> { Live(self) }
}

extension Live {
    /// A property of an `@Observable` view model on the main actor (RAC's `RACObserve`): read
    /// now, or observed with `observation(of:_:)`. Renderers read it on the main actor, where
    /// such a view model lives.
    @MainActor
    public static func observing<Root: Observable & AnyObject & SendableMetatype & Sendable>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>
    ) -> Live<Value> {
        // SAFETY: a key path to a main-actor property is not Sendable; this one is only used on
        // the main actor (inside `assumeIsolated`, which stops the program anywhere else), and
        // key paths are immutable.
        nonisolated(unsafe) let path = keyPath
        return Live(read: { MainActor.assumeIsolated { root[keyPath: path] } }, signal: observation(of: root, keyPath))
    }
}

/// A string is a value that never changes: `List(…, emptyText: "Nothing here.")`.
extension String: LiveConvertible {
    public var live: Live<String> { .constant(self) }
}

/// A Boolean is a value that never changes: `Button("Go", isEnabled: false) { … }`.
extension Bool: LiveConvertible {
    public var live: Live<Bool> { .constant(self) }
}
