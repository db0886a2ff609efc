import MVVM
import Signals

/// Labelled values, one per line, their values aligned (a person's details, a movie's facts).
public struct Facts: ElementConvertible {
    public struct Fact: Sendable {
        public let label: String
        public let value: Live<String>

        public init(_ label: String, _ value: some LiveConvertible<String>) {
            self.label = label
            self.value = value.live
        }

        public init(_ label: String, _ value: String) {
            self.init(label, Live.constant(value))
        }

        /// The label padded to `labelWidth` characters, then two spaces: where the value starts.
        public func prefix(labelWidth: Int) -> String {
            label + String(repeating: " ", count: max(0, labelWidth - label.count)) + "  "
        }
    }

    public let facts: [Fact]

    public init(_ facts: [Fact]) {
        self.facts = facts
    }

    /// Facts whose values never change.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.init(pairs.map { Fact($0.key, $0.value) })
    }

    /// The longest label's length.
    public var labelWidth: Int { facts.map(\.label.count).max() ?? 0 }

    /// Each fact that has a value as "label  value", the values aligned after the longest label.
    public var lines: [String] {
        let width = labelWidth
        return facts.compactMap { fact in
            let value = fact.value.value
            return value.isEmpty ? nil : fact.prefix(labelWidth: width) + value
        }
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let facts = Role(rawValue: "facts")
}

extension Facts: ElementKind {
    public var role: Role { .facts }
    public var names: [String] { facts.map(\.label) + lines }
    public func plainLines(indent: String) -> [String] { lines.map { indent + $0 } }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
