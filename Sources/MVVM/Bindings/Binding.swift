import Signals

/// Something a stream can be bound to: a setter and the lifetime of whatever it sets (a view's
/// property, a view model's input). ReactiveCocoa's `BindingTarget`.
///
/// A view layer exposes its settable properties as binding targets:
///
/// ```swift
/// extension Label {
///     var textTarget: BindingTarget<String> { BindingTarget(lifetime: lifetime) { [weak self] in self?.text = $0 } }
/// }
/// viewModel.title.signal.bind(to: label.textTarget)
/// ```
public struct BindingTarget<Value: Sendable>: Sendable {
    /// When this ends, bindings to the target end.
    public let lifetime: Lifetime
    let action: @Sendable (Value) -> Void

    /// A target that runs `action` with each value until `lifetime` ends.
    public init(lifetime: Lifetime, action: @escaping @Sendable (Value) -> Void) {
        self.lifetime = lifetime
        self.action = action
    }

    /// A target on the main actor: `action` runs there, with each value delivered on the main
    /// thread (bind a driver, or a stream observed on `MainScheduler`).
    public init(lifetime: Lifetime, mainActor action: @escaping @MainActor (Value) -> Void) {
        self.lifetime = lifetime
        self.action = { value in MainScheduler.runOnMainActor { action(value) } }
    }

    /// Sends a value to the target.
    public func send(_ value: Value) {
        action(value)
    }
}

/// An object that owns a `Lifetime`, so bindings to it end when it goes away.
public protocol LifetimeOwner: AnyObject {
    /// Ends when the object is deinitialised.
    var lifetime: Lifetime { get }
}

extension Signal where Failure == Never {
    /// Sends every value to `target` until the stream ends or the target's lifetime ends
    /// (RAC's `target <~ signal`, RxSwift's `bind(to:)`). The binding holds nothing of the
    /// target but its setter.
    @discardableResult
    public func bind(to target: BindingTarget<Value>) -> any Disposable {
        take(during: target.lifetime).sink(value: { target.send($0) })
    }

    /// Sets `property` to every value until the stream ends. The binding holds the property
    /// weakly: it ends when the property goes away.
    @discardableResult
    public func bind(to property: MutableProperty<Value>) -> any Disposable {
        let holder = WeakBox(property)
        let subscription = SerialDisposable()
        // The binding ends when the property goes (its streams complete then), even if the
        // source never ends: otherwise this subscription and its observer, which holds it, would
        // keep each other alive for good.
        let propertyGone: Signal<Void, Never> = property.signal.ignoreValues(as: Void.self).append(())
        subscription.inner = prefix(untilOutputFrom: propertyGone).sink(value: { value in
            guard let property = holder.object else {
                subscription.dispose()
                return
            }
            property.value = value
        })
        return subscription
    }
}

/// A weak reference that can cross threads (the object is `Sendable`).
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    // SAFETY: the weak reference is set once and only loaded afterwards; the runtime makes weak
    // loads thread-safe, and the object itself is Sendable.
    nonisolated(unsafe) weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
