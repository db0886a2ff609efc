import Signals

// What every view layer's controls share, written once: a control two-way bound to a property,
// and a button that follows an action. A view layer says only how a value reaches one of its
// controls (`BindableControl.receive`: the main actor for a terminal's views, a browser tab's
// session for a page's elements); TerminalUI and WebUI make their widgets conform.

/// A view layer's widget that bindings reach: it runs what they deliver on its own executor,
/// in order, while it lives.
///
/// A view layer conforms its base widget once (TerminalUI's `View`, WebUI's `Element`); every
/// binding below is then written once, for every renderer.
public protocol BindableControl: LifetimeOwner {
    /// Calls `body` with each value of `source`, on this control's own executor, in the
    /// stream's order, until the stream ends, the returned disposable is disposed, or the control
    /// goes away.
    @discardableResult
    func receive<Value: Sendable>(_ source: Signal<Value, Never>, _ body: @escaping (Value) -> Void) -> any Disposable
}

extension MutableProperty {
    /// Two-way: the property's value shows in `control[keyPath:]`, and the person's `changes`
    /// set the property; both on the control's executor. Holds the control weakly; ends when it
    /// goes. A value set by code is not a change, so nothing loops back.
    @discardableResult
    public func bindTwoWay<Control: BindableControl>(
        _ control: Control,
        _ keyPath: ReferenceWritableKeyPath<Control, Value>,
        changes: Signal<Value, Never>
    ) -> any Disposable {
        let composite = CompositeDisposable()
        composite += control.receive(signal) { [weak control] value in control?[keyPath: keyPath] = value }
        composite += control.receive(changes) { [self] value in self.value = value }
        return composite
    }

    /// Two-way on the main actor, for a widget that is only a ``LifetimeOwner``.
    @available(*, deprecated, message: "make the widget a BindableControl (its view layer's base widget is one)")
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

/// A control that shows a value and reports the person's changes of it: a text field, a
/// toggle, a segmented choice. `bind(to:)` binds it both ways to a view-model property.
public protocol ValueControl: BindableControl {
    associatedtype Value: Sendable
    /// The value the control shows; a binding sets it (that is not a change by the person).
    var shownValue: Value { get set }
    /// Each value the person gives the control (typed, flipped, chosen), not those code set.
    var personChanges: Signal<Value, Never> { get }
}

extension ValueControl {
    /// Two-way: the property's value shows in the control, and the person's changes set the
    /// property. Ends when the control goes.
    @discardableResult
    public func bind(to property: MutableProperty<Value>) -> any Disposable {
        property.bindTwoWay(self, \.shownValue, changes: personChanges)
    }
}

/// A control that runs something when pressed: a view layer's button.
public protocol ActionControl: BindableControl {
    var isEnabled: Bool { get set }
    /// Shows work under way; a busy control ignores presses.
    var isBusy: Bool { get set }
    /// Runs `press` (on the control's executor) each time the person presses the control,
    /// instead of what ran before.
    func onPress(_ press: @escaping () -> Void)
}

extension ActionControl {
    /// The control follows the action: enabled with `isEnabled`, busy while `isExecuting`, and
    /// a press applies the action with `input`.
    @discardableResult
    public func bind<Input: Sendable, Output: Sendable, Failure: Error>(
        to action: Action<Input, Output, Failure>,
        input: @escaping () -> Input
    ) -> any Disposable {
        let composite = CompositeDisposable()
        composite += receive(action.isEnabled.signal) { [weak self] in self?.isEnabled = $0 }
        composite += receive(action.isExecuting.signal) { [weak self] in self?.isBusy = $0 }
        onPress { action.execute(input()) }
        return composite
    }

    /// The control follows an action that takes no input.
    @discardableResult
    public func bind<Output: Sendable, Failure: Error>(to action: Action<Void, Output, Failure>) -> any Disposable {
        bind(to: action, input: {})
    }
}
