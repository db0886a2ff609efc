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
    /// What the view model finds wrong with the choice (empty while nothing is); `nil`: no message.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn choice (see ``FieldUse``).
    public let use = FieldUse()

    public init(_ label: String, options: [String], selection: MutableProperty<Int>, style: Style = .segmented) {
        self.label = label
        self.options = options
        self.selection = selection
        self.style = style
    }

    /// The choice with a message of its own ("Choose a country"), shown under it once the
    /// person has chosen or tried to submit its ``Form``, as a field's (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> Choice {
        var choice = self
        choice.message = message.live
        return choice
    }

    /// The message shown now: the view model's, once the choice is used; empty before.
    public var shownMessage: Live<String> { use.shown(message) }

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
    /// "Label: (•) One  ( ) Two", or for a menu "Label: [One ▾]"; under it "  ! message"
    /// while its message shows.
    public func plainLines(indent: String) -> [String] {
        let message = shownMessage.value
        return [indent + plainLine] + (message.isEmpty ? [] : [indent + "  ! " + message])
    }

    private var plainLine: String {
        if style == .menu {
            let chosen = options.indices.contains(selection.value) ? options[selection.value] : "—"
            return "\(label): [\(chosen) ▾]"
        }
        let options = options.enumerated().map { index, option in
            index == selection.value ? "(•) \(option)" : "( ) \(option)"
        }
        return "\(label): " + options.joined(separator: "  ")
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension Choice: FormControl {}

extension ValueControl where Value == Int {
    /// The control is the described choice, as every renderer's is: two-way bound to the chosen
    /// index, and used (so its message may show) from the person's first choice.
    @discardableResult
    public func bind(to choice: Choice) -> any Disposable {
        bind(to: choice.selection, using: choice.use, hasMessage: choice.message != nil)
    }
}
