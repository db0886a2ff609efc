import MVVM
import Signals

/// A switch two-way bound to a `Bool` property (a setting, "Remember me"): on while the property
/// is `true`; flipping it sets the property. A terminal draws `[x] Label` (Space or Enter flips
/// it), a browser a checkbox.
///
/// It may have a message of its own ("Accept the terms to sign up"), shown under it once the
/// person has flipped it or tried to submit its ``Form``, in which it counts as one of the
/// fields:
///
/// ```swift
/// Toggle("I accept the terms", isOn: viewModel.accepted).message(viewModel.termsMessage)
/// ```
public struct Toggle: ElementConvertible {
    /// What the toggle is for, shown beside it; tests find it by it.
    public let label: String
    public let isOn: MutableProperty<Bool>
    public let isEnabled: Live<Bool>
    /// What the view model finds wrong with the value (empty while nothing is); `nil`: no message.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn toggle (see ``FieldUse``).
    public let use = FieldUse()

    public init(_ label: String, isOn: MutableProperty<Bool>, isEnabled: some LiveConvertible<Bool> = Live.constant(true)) {
        self.label = label
        self.isOn = isOn
        self.isEnabled = isEnabled.live
    }

    /// The toggle with a message of its own, shown under it once the person has used it, as a
    /// field's (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> Toggle {
        var toggle = self
        toggle.message = message.live
        return toggle
    }

    /// The message shown now: the view model's, once the toggle is used; empty before.
    public var shownMessage: Live<String> { use.shown(message) }

    public var element: Element { Element(self) }
}

extension Role {
    public static let toggle = Role(rawValue: "toggle")
}

extension Toggle: ElementKind {
    public var role: Role { .toggle }
    public var names: [String] { [label] }
    /// "[x] Label" ("(disabled)" after it when it is); under it "  ! message" while its
    /// message shows.
    public func plainLines(indent: String) -> [String] {
        let message = shownMessage.value
        return [indent + (isOn.value ? "[x] " : "[ ] ") + label + (isEnabled.value ? "" : " (disabled)")]
            + (message.isEmpty ? [] : [indent + "  ! " + message])
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension Toggle: FormControl {}

extension ValueControl where Value == Bool {
    /// The control is the described toggle, as every renderer's is: two-way bound to its value,
    /// and used (so its message may show) from the person's first flip.
    @discardableResult
    public func bind(to toggle: Toggle) -> any Disposable {
        bind(to: toggle.isOn, using: toggle.use, hasMessage: toggle.message != nil)
    }
}
