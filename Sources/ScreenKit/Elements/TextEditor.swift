import MVVM
import Signals

/// Text of several lines (a description, a comment), two-way bound to a property, as SwiftUI's
/// `TextEditor`: Enter starts a new line. A terminal wraps the lines at its width and scrolls
/// them under a fixed number of rows; a browser shows a `<textarea>`.
///
/// ```swift
/// TextEditor("Description", text: viewModel.description, maxLength: 500)
///     .message(viewModel.descriptionMessage)
/// ```
///
/// What a person types or pastes is kept as ``TypedText/cleaned(_:keepingLineBreaks:)`` keeps
/// it (line breaks become LF; escape sequences and other controls are dropped), and never
/// longer than ``maxLength`` characters: a paste is cut to the room left, and the editor says
/// how many characters it did not take; a browser stops the typing there itself. Text the view
/// model sets is shown as it is, whatever its length.
///
/// With a ``maxLength`` of its own the editor shows how much of it is used ("12/500"). It may
/// have a message of its own, as a ``TextField`` may, and in a ``Form`` it counts as one of the
/// form's fields; its Enter is a new line, never a submit.
public struct TextEditor: ElementConvertible {
    /// The longest text an editor takes, in characters: what a browser's message carries.
    public static let longestText = 10_000

    /// What the text is for, shown above it; tests find the editor by it.
    public let label: String
    public let text: MutableProperty<String>
    /// Shown (dim) while the text is empty.
    public let placeholder: String
    /// The most characters (graphemes) a person's typing and pasting leave in the text.
    public let maxLength: Int
    /// Whether the app gave ``maxLength`` (the editor then shows how much of it is used).
    public let showsCount: Bool
    /// How many lines a terminal shows at once (a browser's `rows`).
    public let lines: Int
    /// What the view model finds wrong with the text (empty while nothing is); `nil`: no message.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn editor (see ``FieldUse``).
    public let use: FieldUse

    /// An editor of `text`, showing `lines` lines (1 or more) at once; `maxLength` (1 through
    /// ``longestText``), if given, limits what a person may type and shows the count.
    public init(_ label: String, text: MutableProperty<String>, placeholder: String = "", maxLength: Int? = nil, lines: Int = 4) {
        if let maxLength {
            precondition(
                (1...Self.longestText).contains(maxLength),
                "TextEditor(\"\(label)\"): maxLength must be 1 through \(Self.longestText), not \(maxLength)")
        }
        precondition(lines >= 1, "TextEditor(\"\(label)\"): it must show at least 1 line, not \(lines)")
        self.label = label
        self.text = text
        self.placeholder = placeholder
        self.maxLength = maxLength ?? Self.longestText
        showsCount = maxLength != nil
        self.lines = lines
        use = FieldUse()
    }

    /// The editor with a message of its own, shown under it once the person has used it (typed
    /// in it, or tried to submit its ``Form``), as a field's (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> TextEditor {
        var editor = self
        editor.message = message.live
        return editor
    }

    /// The message shown now: the view model's, once the editor is used; empty before.
    public var shownMessage: Live<String> { use.shown(message) }

    /// What the editor keeps of `typed`, the whole text a person left in it: cleaned, line
    /// breaks kept, and cut to ``maxLength`` characters.
    public func kept(_ typed: String) -> String {
        let clean = TypedText.cleaned(typed, keepingLineBreaks: true)
        return clean.count > maxLength ? String(clean.prefix(maxLength)) : clean
    }

    /// How much of ``maxLength`` `text` uses, as the editor shows it: "12/500".
    public func count(of text: String) -> String {
        "\(text.count)/\(maxLength)"
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let editor = Role(rawValue: "editor")
}

extension TextEditor: ElementKind {
    public var role: Role { .editor }
    public var names: [String] { [label, placeholder] }
    /// "Label: text" for one line (the placeholder in parentheses while empty); for more, the
    /// label and then each line indented; "(12/500)" after it with a count of its own; under
    /// it "  ! message" while its message shows.
    public func plainLines(indent: String) -> [String] {
        let value = text.value
        let count = showsCount ? " (\(count(of: value)))" : ""
        var lines: [String]
        if value.contains("\n") {
            lines = [indent + "\(label):" + count] + value.split(separator: "\n", omittingEmptySubsequences: false).map { indent + "  " + $0 }
        } else {
            let shown = value.isEmpty && !placeholder.isEmpty ? "(\(placeholder))" : value
            // "Label: (0/500)" for an empty editor with no placeholder, one space as with text.
            lines = [indent + "\(label):" + (shown.isEmpty ? "" : " " + shown) + count]
        }
        let message = shownMessage.value
        if !message.isEmpty { lines.append(indent + "  ! " + message) }
        return lines
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension TextEditor: FormField {}

extension ValueControl where Value == String {
    /// The control is the described editor, as every renderer's editor is: two-way bound to
    /// its text, and used (so its message may show) from the person's first edit.
    @discardableResult
    public func bind(to editor: TextEditor) -> any Disposable {
        bind(to: editor.text, using: editor.use, hasMessage: editor.message != nil)
    }
}
