import MVVM
import Signals

/// A link to another site, by its http or https address: a browser opens it in a new tab
/// (`rel="noopener noreferrer"`, so the other site cannot reach back into the app's page); a
/// terminal and plain text show the address beside the title.
///
/// ```swift
/// Link("MVVMKit on GitHub", destination: "https://github.com/example/mvvmkit")
/// ```
///
/// An address of any other kind (`javascript:`, `data:`, `file:`, one without a host) is
/// refused: the link shows its title and why, and opens nothing. A link to one of the app's own
/// screens is a ``Button`` whose press navigates: `linking(path:)` draws it as a link to that
/// screen's address (a new tab opens it there), `linking(query:)` to this screen's with other
/// query items.
public struct Link: ElementConvertible {
    public let title: String
    /// The address as given.
    public let address: String
    /// The address, if it is one a link may open (http or https, with a host); `nil`: refused.
    public let destination: String?

    public init(_ title: String, destination address: String) {
        self.title = title
        self.address = address
        destination = Self.isOpenable(address) ? address : nil
    }

    /// Why a refused link opens nothing.
    public static let refusal = "not opened: only http and https addresses"

    /// Whether `address` is an http or https address with a host, and nothing a page or a
    /// terminal could misread: no spaces or line separators, no control characters, and no
    /// invisible format characters (a right-to-left override turns what a person reads around;
    /// a zero-width space hides in a host name). Other letters are fine (`https://例え.jp`).
    public static func isOpenable(_ address: String) -> Bool {
        let lowered = address.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lowered.hasPrefix) else { return false }
        let rest = address.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.hasPrefix("@"), !host.hasPrefix(":") else { return false }
        return !address.unicodeScalars.contains { scalar in
            scalar.properties.isWhitespace || [.control, .format].contains(scalar.properties.generalCategory)
        }
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let link = Role(rawValue: "link")
}

extension Link: ElementKind {
    public var role: Role { .link }
    public var names: [String] { [title] }
    /// "Title <https://…>", or "Title (not opened: only http and https addresses)".
    public func plainLines(indent: String) -> [String] {
        [indent + title + (destination.map { " <\($0)>" } ?? " (\(Self.refusal))")]
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
