import MVVM
import Signals

/// A choice among a few options, two-way bound to the selected index (the movie lists' "Now
/// Playing | Popular | …", a tab bar), or, with the `menu` style, a picker of one option among
/// many (SwiftUI's `Picker`): a list that opens in a terminal, a `<select>` in a browser.
///
/// ```swift
/// Choice("Priority", options: ["Low", "Normal", "High", "Urgent"], selection: viewModel.priority, style: .menu)
/// ```
public struct Choice: ElementConvertible {
    /// `segmented`: every option in a row; `menu`: the chosen one, the others in a list that
    /// opens (for many options, or long ones); `tabs`: a tab bar.
    public enum Style: String, Sendable { case segmented, tabs, menu }

    public let label: String
    public let options: [String]
    public let selection: MutableProperty<Int>
    public let style: Style

    public init(_ label: String, options: [String], selection: MutableProperty<Int>, style: Style = .segmented) {
        self.label = label
        self.options = options
        self.selection = selection
        self.style = style
    }

    /// A choice among `options`, each shown as `title` names it, that selects the view model's
    /// own value (an enumeration, say) rather than an index: choosing an option sets
    /// `selection`, and a change to `selection` moves the choice. A value that is not among
    /// `options` selects none.
    ///
    /// ```swift
    /// Choice("Sort", options: [.newest, .oldest], selection: viewModel.sort, title: \.title)
    /// ```
    public init<Option: Equatable & Sendable>(
        _ label: String, options: [Option], selection: MutableProperty<Option>,
        title: (Option) -> String, style: Style = .segmented
    ) {
        self.init(label, options: options.map(title), selection: PropertyBridge.index(following: selection, among: options), style: style)
    }

    /// A choice among every case of the view model's enumeration, each shown by its
    /// `description`: `Choice("Sort", selection: viewModel.sort)`.
    public init<Option: CaseIterable & Equatable & Sendable & CustomStringConvertible>(
        _ label: String, selection: MutableProperty<Option>, style: Style = .segmented
    ) {
        self.init(label, options: Array(Option.allCases), selection: selection, title: \.description, style: style)
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let choice = Role(rawValue: "choice")
}

extension Choice: ElementKind {
    public var role: Role { .choice }
    public var names: [String] { [label] + options }
    /// "Label: (•) One  ( ) Two", or for a menu "Label: [One ▾]".
    public func plainLines(indent: String) -> [String] {
        if style == .menu {
            let chosen = options.indices.contains(selection.value) ? options[selection.value] : "—"
            return [indent + "\(label): [\(chosen) ▾]"]
        }
        let options = options.enumerated().map { index, option in
            index == selection.value ? "(•) \(option)" : "( ) \(option)"
        }
        return [indent + "\(label): " + options.joined(separator: "  ")]
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
