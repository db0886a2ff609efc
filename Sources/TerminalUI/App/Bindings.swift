import MVVM
import ScreenKit
import Signals

// A terminal's widgets as MVVM's bindable controls: values reach them on the main actor, while
// they live. The bindings themselves (two-way, an action's button) are MVVM's, written once
// for every renderer.

extension View: @MainActor BindableControl {
    @discardableResult
    public func receive<Value: Sendable>(_ source: Signal<Value, Never>, _ body: @escaping (Value) -> Void) -> any Disposable {
        source.receive(onMainActorDuring: self, body)
    }
}

extension TextField: @MainActor ValueControl {
    public var shownValue: String {
        get { text }
        set { text = newValue }
    }
    public nonisolated var personChanges: Signal<String, Never> { textChanges }
}

extension TextEditor: @MainActor ValueControl {
    public var shownValue: String {
        get { text }
        set { text = newValue }
    }
    public nonisolated var personChanges: Signal<String, Never> { textChanges }
}

extension Toggle: @MainActor ValueControl {
    public var shownValue: Bool {
        get { isOn }
        set { isOn = newValue }
    }
    public nonisolated var personChanges: Signal<Bool, Never> { changes }
}

extension SegmentedControl: @MainActor ValueControl {
    public var shownValue: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    public nonisolated var personChanges: Signal<Int, Never> { selectionChanges }
}

extension Picker: @MainActor ValueControl {
    public var shownValue: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    public nonisolated var personChanges: Signal<Int, Never> { selectionChanges }
}

extension CheckList: @MainActor ValueControl {
    public var shownValue: Set<Int> {
        get { selection }
        set { selection = newValue }
    }
    public nonisolated var personChanges: Signal<Set<Int>, Never> { selectionChanges }
}

extension DateField: @MainActor DateControl {
    public var shownDay: Day? {
        get { day }
        set { day = newValue }
    }
    public var shownTime: TimeOfDay? {
        get { time }
        set { time = newValue }
    }
}

extension Stepper: @MainActor ValueControl {
    public var shownValue: Double {
        get { value }
        set { value = newValue }
    }
    public nonisolated var personChanges: Signal<Double, Never> { valueChanges }
}

extension TabBar: @MainActor ValueControl {
    public var shownValue: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    public nonisolated var personChanges: Signal<Int, Never> { selectionChanges }
}

extension Button: @MainActor ActionControl {
    public func onPress(_ press: @escaping () -> Void) {
        let press = MainActorClosure(press)
        onPress = { press.call() }
    }
}

/// A closure made on the main actor and kept there, so that a main-actor closure (which is
/// `Sendable`) can call it.
@MainActor
private final class MainActorClosure: Sendable {
    let call: () -> Void

    init(_ call: @escaping () -> Void) {
        self.call = call
    }
}
