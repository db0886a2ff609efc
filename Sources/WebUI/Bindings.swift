import MVVM
import Signals

// Bindings between elements and view models, as in TerminalUI: main-actor, holding the element
// weakly, and ending when the element or the source goes away.

@MainActor
func bindTwoWay<Widget: Element, Value: Sendable>(
    _ widget: Widget,
    _ keyPath: ReferenceWritableKeyPath<Widget, Value>,
    to property: MutableProperty<Value>,
    changes: Signal<Value, Never>
) -> any Disposable {
    let composite = CompositeDisposable()
    composite += property.signal.bind(to: widget, keyPath)
    composite += changes.take(during: widget.lifetime).sink(value: { property.value = $0 })
    return composite
}

extension TextField {
    /// Two-way: the property's value shows in the field, and the user's edits set the property.
    @discardableResult
    public func bind(to property: MutableProperty<String>) -> any Disposable {
        bindTwoWay(self, \.value, to: property, changes: textChanges)
    }
}

extension SegmentedControl {
    /// Two-way: the property selects the segment, and the user's choice sets the property.
    @discardableResult
    public func bind(to property: MutableProperty<Int>) -> any Disposable {
        bindTwoWay(self, \.selectedIndex, to: property, changes: selectionChanges)
    }
}

extension TabBar {
    /// Two-way: the property selects the tab, and the user's choice sets the property.
    @discardableResult
    public func bind(to property: MutableProperty<Int>) -> any Disposable {
        bindTwoWay(self, \.selectedIndex, to: property, changes: selectionChanges)
    }
}

extension Button {
    /// The button follows the action: enabled with `isEnabled`, busy while `isExecuting`, and a
    /// click applies the action with `input`.
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

    /// The button follows an action that takes no input.
    @discardableResult
    public func bind<Output: Sendable, Failure: Error>(to action: Action<Void, Output, Failure>) -> any Disposable {
        bind(to: action, input: {})
    }
}
