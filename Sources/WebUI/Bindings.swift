import MVVM
import Signals

// Bindings between elements and view models: each delivers on the executor the element was
// built on (its session's, or the main actor's), holds the element weakly, and ends when the
// element or the source goes away. The same contracts as MVVM's main-actor bindings, which
// TerminalUI uses.

extension Signal where Failure == Never {
    /// Sets `element[keyPath:]` to every value, on the page's executor (the caller's), until the
    /// stream ends or the element goes; the element is held weakly. In order; at once when the
    /// value comes on that executor with none of this binding's waiting; none after disposal.
    @discardableResult
    public func bind<Target: Element>(to element: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>) -> any Disposable {
        let target = Confined(WeakTarget(element, keyPath))
        let scheduler = target.executor.scheduler()
        let subscription = SerialDisposable()
        subscription.inner = take(during: element.lifetime).subscribe(Observer(value: { value in
            scheduler.schedule {
                if !subscription.isDisposed && !target.get.set(value) { subscription.dispose() }
            }
        }))
        return subscription
    }

    /// Runs `body` with every value, on the page's executor (the caller's), while `owner`
    /// lives: what MVVM's `asDriver().drive` is on the main actor.
    @discardableResult
    public func drive(during owner: some LifetimeOwner, _ body: @escaping (Value) -> Void) -> any Disposable {
        let body = Confined(body)
        let scheduler = body.executor.scheduler()
        let subscription = SerialDisposable()
        subscription.inner = take(during: owner.lifetime).subscribe(Observer(value: { value in
            scheduler.schedule {
                if !subscription.isDisposed { body.get(value) }
            }
        }))
        return subscription
    }

    /// Runs `body` with every value the element sends on its own executor (its events: a
    /// press, an edit), while the element lives.
    @discardableResult
    func perform(during element: Element, _ body: @escaping (Value) -> Void) -> any Disposable {
        let body = Confined(body)
        return take(during: element.lifetime).sink(value: { body.get($0) })
    }
}

/// An element held weakly, and the key path a binding sets.
private final class WeakTarget<Target: Element, Value> {
    private weak var element: Target?
    private let keyPath: ReferenceWritableKeyPath<Target, Value>

    init(_ element: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>) {
        self.element = element
        self.keyPath = keyPath
    }

    /// Sets the value; `false` once the element has gone.
    func set(_ value: Value) -> Bool {
        guard let element else { return false }
        element[keyPath: keyPath] = value
        return true
    }
}

extension MutableProperty {
    /// Two-way: the property's value shows in `element[keyPath:]`, and the user's `changes` set
    /// the property; ends when the element goes.
    fileprivate func bindTwoWay<Target: Element>(
        _ element: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>, changes: Signal<Value, Never>
    ) -> any Disposable {
        let composite = CompositeDisposable()
        composite += signal.bind(to: element, keyPath)
        composite += changes.take(during: element.lifetime).sink(value: { [self] in self.value = $0 })
        return composite
    }
}

extension TextField {
    /// Two-way: the property's value shows in the field, and the user's edits set the property.
    @discardableResult
    public func bind(to property: MutableProperty<String>) -> any Disposable {
        property.bindTwoWay(self, \.value, changes: textChanges)
    }
}

extension Toggle {
    /// Two-way: the property's value checks the box, and each flip in the browser sets the
    /// property.
    @discardableResult
    public func bind(to property: MutableProperty<Bool>) -> any Disposable {
        property.bindTwoWay(self, \.isOn, changes: changes)
    }
}

extension SegmentedControl {
    /// Two-way: the property selects the segment, and the user's choice sets the property.
    @discardableResult
    public func bind(to property: MutableProperty<Int>) -> any Disposable {
        property.bindTwoWay(self, \.selectedIndex, changes: selectionChanges)
    }
}

extension TabBar {
    /// Two-way: the property selects the tab, and the user's choice sets the property.
    @discardableResult
    public func bind(to property: MutableProperty<Int>) -> any Disposable {
        property.bindTwoWay(self, \.selectedIndex, changes: selectionChanges)
    }
}

extension Button {
    /// The button follows the action: enabled with `isEnabled`, busy while `isExecuting`, and a
    /// press applies the action with `input` (as MVVM's `ActionControl` does on the main actor).
    @discardableResult
    public func bind<Input: Sendable, Output: Sendable, Failure: Error>(
        to action: Action<Input, Output, Failure>, input: @escaping () -> Input
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
