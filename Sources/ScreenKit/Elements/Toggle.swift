import MVVM
import Signals

/// A switch two-way bound to a `Bool` property (a setting, "Remember me"): on while the property
/// is `true`; flipping it sets the property. A terminal draws `[x] Label` (Space or Enter flips
/// it), a browser a checkbox.
public struct Toggle: ElementConvertible {
    /// What the toggle is for, shown beside it; tests find it by it.
    public let label: String
    public let isOn: MutableProperty<Bool>
    public let isEnabled: Live<Bool>

    public init(_ label: String, isOn: MutableProperty<Bool>, isEnabled: some LiveConvertible<Bool> = Live.constant(true)) {
        self.label = label
        self.isOn = isOn
        self.isEnabled = isEnabled.live
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let toggle = Role(rawValue: "toggle")
}

extension Toggle: ElementKind {
    public var role: Role { .toggle }
    public var names: [String] { [label] }
    public func plainLines(indent: String) -> [String] {
        [indent + (isOn.value ? "[x] " : "[ ] ") + label + (isEnabled.value ? "" : " (disabled)")]
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
