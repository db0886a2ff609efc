import MVVM
import Signals

// Bindings between widgets and view models (RxCocoa's control bindings). They are main-actor,
// hold the widget weakly, and end when the widget or the source goes away.

/// Two-way: the property's value shows in the widget's `keyPath`, and the user's `changes` set
/// the property. Ends with the widget.
extension TextField {
    /// Two-way: the property's value shows in the field, and the user's edits set the property.
    @discardableResult
    public func bind(to property: MutableProperty<String>) -> any Disposable {
        property.bindTwoWay(self, \.text, changes: textChanges)
    }
}

extension Toggle {
    /// Two-way: the property's value shows, and each flip by the user sets the property.
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

// The button follows an action through MVVM's `ActionControl` (`button.bind(to: action)`).
extension Button: ActionControl {}
