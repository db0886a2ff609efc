import MVVM
import Signals

/// A titled group ("Recent searches").
public struct Section: ElementConvertible {
    public let title: String
    public let content: [Element]

    public init(_ title: String, @ScreenBuilder content: () -> [Element]) {
        self.title = title
        self.content = content()
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let section = Role(rawValue: "section")
}

extension Section: ElementKind {
    public var role: Role { .section }
    public var names: [String] { [title] }
    public func plainLines(indent: String) -> [String] {
        [indent + title + ":"] + content.flatMap { PlainText.render($0, indent: indent + "  ") }
    }
    public var children: [Element] { content }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
