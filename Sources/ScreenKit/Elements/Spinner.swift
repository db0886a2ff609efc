import MVVM
import Signals

/// Shows that work is under way, with what it is, while `isActive` is `true`.
public struct Spinner: ElementConvertible {
    public let label: String
    public let isActive: Live<Bool>

    public init(_ label: String, isActive: some LiveConvertible<Bool>) {
        self.label = label
        self.isActive = isActive.live
    }

    public var element: Element { Element(self, visibility: isActive) }
}

extension Role {
    public static let spinner = Role(rawValue: "spinner")
}

extension Spinner: ElementKind {
    public var role: Role { .spinner }
    public var names: [String] { [label] }
    public func plainLines(indent: String) -> [String] { [indent + "⋯ \(label)"] }
    public var isWorking: Bool { isActive.value }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
