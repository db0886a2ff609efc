import MVVM
import Signals

/// Elements one after another, down the screen or across it.
public struct Stack: ElementConvertible {
    public enum Axis: String, Sendable { case vertical, horizontal }

    public let axis: Axis
    public let content: [Element]

    public init(_ axis: Axis, @ScreenBuilder content: () -> [Element]) {
        self.axis = axis
        self.content = content()
    }

    public var element: Element { Element(self) }
}

/// Elements across the screen: `HStack { TextField(…); Button(…) }`.
public struct HStack: ElementConvertible {
    public let stack: Stack
    public init(@ScreenBuilder content: () -> [Element]) { stack = Stack(.horizontal, content: content) }
    public var element: Element { stack.element }
}

/// Elements down the screen.
public struct VStack: ElementConvertible {
    public let stack: Stack
    public init(@ScreenBuilder content: () -> [Element]) { stack = Stack(.vertical, content: content) }
    public var element: Element { stack.element }
}

extension Role {
    public static let stack = Role(rawValue: "stack")
}

extension Stack: ElementKind {
    public var role: Role { .stack }
    public var names: [String] { [] }
    /// Down the screen: its elements' lines; across: one line of its elements, two spaces apart.
    public func plainLines(indent: String) -> [String] {
        switch axis {
        case .vertical:
            return content.flatMap { PlainText.render($0, indent: indent) }
        case .horizontal:
            let parts = content.flatMap { PlainText.render($0, indent: "") }
            return parts.isEmpty ? [] : [indent + parts.joined(separator: "  ")]
        }
    }
    public var children: [Element] { content }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
