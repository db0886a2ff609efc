import MVVM
import Signals

// Bindings between elements and view models, as in TerminalUI: main-actor, holding the element
// weakly, and ending when the element or the source goes away.

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

// The button follows an action through MVVM's `ActionControl` (`button.bind(to: action)`).
extension Button: ActionControl {}
