import MVVM
import Signals

/// What an alert says.
public struct AlertMessage: Sendable, Equatable {
    public let title: String
    public let message: String
    public let dismiss: String

    public init(title: String, message: String, dismiss: String = "OK") {
        self.title = title
        self.message = message
        self.dismiss = dismiss
    }
}

/// Alerts the screen shows over itself, one per value of `messages`, until dismissed.
public struct Alert: ElementConvertible {
    public let messages: Signal<AlertMessage, Never>

    public init(_ messages: Signal<AlertMessage, Never>) {
        self.messages = messages
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let alert = Role(rawValue: "alert")
}

extension Alert: ElementKind {
    public var role: Role { .alert }
    public var names: [String] { [] }
    /// None: whoever shows the screen draws its alerts over it.
    public func plainLines(indent: String) -> [String] { [] }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
