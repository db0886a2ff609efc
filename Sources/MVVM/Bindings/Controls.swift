import Signals

// What every view layer's controls share: a field two-way bound to a property, and a button
// that follows an action. TerminalUI and WebUI make their widgets conform.

extension MutableProperty {
    /// Two-way: the property's value shows in `widget[keyPath:]`, and the user's `changes` set
    /// the property. Main-actor; holds the widget weakly; ends when the widget goes.
    @MainActor
    @discardableResult
    public func bindTwoWay<Widget: LifetimeOwner>(
        _ widget: Widget,
        _ keyPath: ReferenceWritableKeyPath<Widget, Value>,
        changes: Signal<Value, Never>
    ) -> any Disposable {
        let composite = CompositeDisposable()
        composite += signal.bind(to: widget, keyPath)
        composite += changes.take(during: widget.lifetime).sink(value: { [self] in self.value = $0 })
        return composite
    }
}

/// A control that runs something when pressed: a view layer's button.
@MainActor
public protocol ActionControl: LifetimeOwner {
    var isEnabled: Bool { get set }
    /// Shows work under way; a busy control ignores presses.
    var isBusy: Bool { get set }
    var onPress: (@MainActor () -> Void)? { get set }
}

extension ActionControl {
    /// The control follows the action: enabled with `isEnabled`, busy while `isExecuting`, and
    /// a press applies the action with `input`.
    @discardableResult
    public func bind<Input: Sendable, Output: Sendable, Failure: Error>(
        to action: Action<Input, Output, Failure>,
        input: @escaping @MainActor () -> Input
    ) -> any Disposable {
        let composite = CompositeDisposable()
        composite += action.isEnabled.signal.bind(to: self, \.isEnabled)
        composite += action.isExecuting.signal.bind(to: self, \.isBusy)
        onPress = { action.execute(input()) }
        return composite
    }

    /// The control follows an action that takes no input.
    @discardableResult
    public func bind<Output: Sendable, Failure: Error>(to action: Action<Void, Output, Failure>) -> any Disposable {
        bind(to: action, input: {})
    }
}
