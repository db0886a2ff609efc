/// What a web developer hangs on a described element: classes for a stylesheet, an id for a
/// stylesheet, a link (`#save`) or a browser test, and an accessible name. Only a browser draws
/// them; the terminal, plain text and the tester ignore them.
///
/// ```swift
/// Button("Save", action: viewModel.save)
///     .webClass("wide")
///     .webID("save")
///     .accessibilityLabel("Save the list")
/// ```
public struct WebHooks: Sendable, Hashable {
    /// Classes added to the element's own (WebUI's article "Styling a page" lists those).
    public var classes: [String] = []
    /// The element's id in the page, instead of one WebUI makes up. It must be unique on the
    /// page, start with a letter, hold only letters, digits, `-` and `_`, be at most 32
    /// characters, and not look like WebUI's own (`e12`); otherwise WebUI makes one up.
    public var id: String?
    /// What a screen reader calls the element (`aria-label`), instead of its text or label.
    public var accessibilityLabel: String?

    public init() {}

    /// Whether `id` can be an element's id in a page (see ``id``).
    public static func isValidID(_ id: String) -> Bool {
        let scalars = Array(id.unicodeScalars)
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        guard let first = scalars.first, scalars.count <= 32, isLetter(first),
              scalars.allSatisfy({ isLetter($0) || isDigit($0) || $0 == "-" || $0 == "_" })
        else { return false }
        // WebUI's own ids: `e` and digits.
        return !(first == "e" && scalars.count > 1 && scalars.dropFirst().allSatisfy(isDigit))
    }
}

extension ElementConvertible {
    /// The element, with `names` (space-separated) among its classes in a browser.
    public func webClass(_ names: String) -> Element {
        var element = self.element
        element.web.classes += names.split(whereSeparator: \.isWhitespace).map(String.init)
        return element
    }

    /// The element, with `id` as its id in a browser's page (see ``WebHooks/id``).
    public func webID(_ id: String) -> Element {
        var element = self.element
        element.web.id = id
        return element
    }

    /// The element, named `label` for a screen reader in a browser (`aria-label`).
    public func accessibilityLabel(_ label: String) -> Element {
        var element = self.element
        element.web.accessibilityLabel = label
        return element
    }
}
