import MVVM
import Signals

/// How a line of text is set: renderers map each to their own look (bold, dim, red, …).
public enum TextStyle: String, Sendable {
    case body, headline, secondary, error
}

/// Text that follows a property (a count, a status, a greeting) or never changes.
public struct Text: ElementConvertible {
    public let value: Live<String>
    public let style: TextStyle

    /// Text that follows a property (or any ``LiveConvertible`` string): each change shows.
    public init(_ value: some LiveConvertible<String>, style: TextStyle = .body) {
        self.value = value.live
        self.style = style
    }

    /// Text that never changes.
    public init(_ text: String, style: TextStyle = .body) {
        self.init(Live.constant(text), style: style)
    }

    /// Text that follows an optional value, empty while it is `nil` (and then not shown).
    public init(_ value: some LiveConvertible<String?>, style: TextStyle = .body) {
        self.init(value.live.map { $0 ?? "" }, style: style)
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let text = Role(rawValue: "text")
}

extension Text: ElementKind {
    public var role: Role { .text }
    public var names: [String] { [value.value] }
    /// Its lines, none while it is empty.
    public func plainLines(indent: String) -> [String] {
        let value = value.value
        if value.isEmpty { return [] }
        return value.split(separator: "\n", omittingEmptySubsequences: false).map { indent + String($0) }
    }
    /// An empty text takes no room (an error line with no error).
    public var isEmpty: Live<Bool>? { value.map(\.isEmpty) }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
