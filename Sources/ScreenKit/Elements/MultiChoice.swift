import MVVM
import Signals

/// Any number of options among several (an issue's labels, the days a shop opens), two-way
/// bound to the set of chosen indices, as Charm's huh `MultiSelect`: a terminal lists the
/// options as `[x] One` rows (↑ ↓ move, Space or Enter flips one), a browser shows a group of
/// checkboxes under its label.
///
/// ```swift
/// MultiChoice("Labels", options: ["crash", "ui", "docs"], selection: viewModel.labels)
///     .message(viewModel.labelsMessage)
/// ```
///
/// It may have a message of its own ("Choose at least one label"), shown under it once the
/// person has flipped an option or tried to submit its ``Form``, in which it counts as one of
/// the fields.
public struct MultiChoice: ElementConvertible {
    /// What the options are for, shown above them; tests find the control by it.
    public let label: String
    public let options: [String]
    /// The indices of the chosen options (one that is not an option's index shows nothing).
    public let selection: MutableProperty<Set<Int>>
    /// What the view model finds wrong with the choice (empty while nothing is); `nil`: no message.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn control (see ``FieldUse``).
    public let use: FieldUse

    public init(_ label: String, options: [String], selection: MutableProperty<Set<Int>>) {
        self.label = label
        self.options = options
        self.selection = selection
        use = FieldUse()
    }

    /// A choice among `options`, each shown as `title` names it, of a set of the view model's
    /// own values: flipping an option adds it to `selection` or takes it out, and a change to
    /// `selection` shows. Values in `selection` that are not among `options` are kept.
    ///
    /// ```swift
    /// MultiChoice("Days", options: Weekday.allCases, selection: viewModel.days, title: \.name)
    /// ```
    public init<Option: Hashable & Sendable>(
        _ label: String, options: [Option], selection: MutableProperty<Set<Option>>, title: (Option) -> String
    ) {
        let indices = PropertyBridge.following(
            selection,
            to: { chosen in Set(options.indices.filter { chosen.contains(options[$0]) }) },
            back: { [selection] indices in
                let offered = Set(options)
                let others = selection.value.subtracting(offered)
                return others.union(indices.compactMap { options.indices.contains($0) ? options[$0] : nil })
            })
        self.init(label, options: options.map(title), selection: indices)
    }

    /// A choice among every case of the view model's enumeration, each shown by its
    /// `description`: `MultiChoice("Days", selection: viewModel.days)`.
    public init<Option: CaseIterable & Hashable & Sendable & CustomStringConvertible>(
        _ label: String, selection: MutableProperty<Set<Option>>
    ) {
        self.init(label, options: Array(Option.allCases), selection: selection, title: \.description)
    }

    /// The control with a message of its own, shown under it once the person has used it
    /// (flipped an option, or tried to submit its ``Form``), as a field's
    /// (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> MultiChoice {
        var choice = self
        choice.message = message.live
        return choice
    }

    /// The message shown now: the view model's, once the control is used; empty before.
    public var shownMessage: Live<String> { use.shown(message) }

    /// `chosen` with the option at `index` flipped: in it if it was not, out if it was (an
    /// index that is not an option's changes nothing).
    public func flipping(_ index: Int, in chosen: Set<Int>) -> Set<Int> {
        guard options.indices.contains(index) else { return chosen }
        var flipped = chosen
        if flipped.remove(index) == nil { flipped.insert(index) }
        return flipped
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let multiChoice = Role(rawValue: "multiChoice")
}

extension MultiChoice: ElementKind {
    public var role: Role { .multiChoice }
    public var names: [String] { [label] + options }
    /// "Label: [x] One  [ ] Two"; under it "  ! message" while its message shows.
    public func plainLines(indent: String) -> [String] {
        let chosen = selection.value
        let boxes = options.enumerated().map { index, option in (chosen.contains(index) ? "[x] " : "[ ] ") + option }
        var lines = [indent + "\(label): " + boxes.joined(separator: "  ")]
        let message = shownMessage.value
        if !message.isEmpty { lines.append(indent + "  ! " + message) }
        return lines
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension MultiChoice: FormControl {}

extension ValueControl where Value == Set<Int> {
    /// The control is the described multi-choice, as every renderer's is: two-way bound to the
    /// chosen indices, and used (so its message may show) from the person's first flip.
    @discardableResult
    public func bind(to choice: MultiChoice) -> any Disposable {
        bind(to: choice.selection, using: choice.use, hasMessage: choice.message != nil)
    }
}
