import MVVM
import Signals

/// Fields with one submit action: a sign-up, a new issue. Its submit button follows the action
/// (busy while it runs) and is enabled only while no field has a message; Enter in one of its
/// fields that has no action of its own submits the form, as in a browser's `<form>`.
///
/// ```swift
/// Form(submit: "Sign up", action: viewModel.signUp) {
///     TextField("User name", text: viewModel.userName).message(viewModel.userNameMessage)
///     SecureField("Password", text: viewModel.password).message(viewModel.passwordMessage)
/// }
/// ```
///
/// A field's ``TextField/message(_:)`` (or a ``TextEditor``'s, a ``MultiChoice``'s) shows once the person has used
/// that field, and on every field once they try to submit: an Enter while a field has a message is refused, every
/// message shows, and the first field with one takes the focus. Once its action succeeds, the form
/// starts afresh: no field counts as used, so a view model that empties its fields after a
/// submit does not greet the person with their messages.
public struct Form: ElementConvertible {
    /// The fields (and anything else) above the submit button.
    public let content: [Element]
    /// The submit button: enabled while the action is and no field has a message, busy while
    /// the action runs (if it refuses meanwhile).
    public let submitButton: Button
    /// What its fields' Enter submits (they hold it weakly: it holds them).
    private let link: FieldUse.FormLink

    /// A form whose submit button, titled `title`, applies `action`.
    public init<Output: Sendable, Failure: Error>(
        submit title: String, action: Action<Void, Output, Failure>, @ScreenBuilder content: () -> [Element]
    ) {
        let content = content()
        let found = content.flatMap { Self.fields(in: $0, shown: nil) }
        let fields = found.map(\.field)
        // A message counts while its field is shown: a field the screen hides keeps no one from
        // submitting.
        let checked = found.compactMap { field, shown in
            field.message.map { message in
                (use: field.use, message: shown.map { shown in shown.combine(message) { $0 ? $1 : "" } } ?? message)
            }
        }
        let uses = fields.map(\.use)
        let isValid = checked.reduce(Live.constant(true)) { valid, field in valid.combine(field.message) { $0 && $1.isEmpty } }
        let submit: @Sendable () -> Void = {
            for use in uses { use.markUsed() }
            if let invalid = checked.first(where: { !$0.message.value.isEmpty }) {
                invalid.use.requestFocus()
                return
            }
            // A form that went through starts afresh, as LiveView's fresh form does: what its
            // view model does next (empty the fields, or keep them) is no one's mistake, so no
            // message shows until a field is used or a submit is tried again.
            _ = action.apply().sink(completion: { completion in
                if case .completed = completion { for use in uses { use.markUnused() } }
            })
        }
        let isBusy = TextField.busy(while: action)
        let link = FieldUse.FormLink(submit: submit, isBusy: isBusy)
        for field in fields where field.joinsForm {
            field.use.join(link)
        }
        self.link = link
        self.content = content
        submitButton = Button(
            title: .constant(title), isEnabled: action.isEnabled.live.combine(isValid) { $0 && $1 }, isBusy: isBusy, press: { link.submit() })
    }

    /// Submits as a person does (the submit button, or Enter in one of its fields): every field
    /// counts as used; if a field has a message the first such takes the focus and nothing is
    /// applied, otherwise the action is.
    public func submit() {
        submitButton.press()
    }

    /// The fields (text fields, editors, multi-choices) in `element` and in what it holds, each with when it is
    /// shown (`nil`: always): its own visibility and its containers'.
    static func fields(in element: Element, shown: Live<Bool>?) -> [(field: any FormControl, shown: Live<Bool>?)] {
        let shown = switch (shown, element.visibility) {
        case (let outer?, let own?): outer.combine(own) { $0 && $1 }
        case (let outer, let own): outer ?? own
        }
        if let field = element.kind as? any FormControl { return [(field, shown)] }
        return element.kind.allChildren.flatMap { fields(in: $0, shown: shown) }
    }

    public var element: Element { Element(self) }
}

/// A kind a ``Form`` counts as one of its fields (a text field, an editor, a multi-choice): its
/// label, whether it was used, its message, and whether its Enter submits the form.
protocol FormControl {
    var label: String { get }
    var use: FieldUse { get }
    var message: Live<String>? { get }
    var shownMessage: Live<String> { get }
    /// Whether Enter in it submits its form (a field without an action of its own; an editor's
    /// Enter is a new line, a multi-choice's flips an option).
    var joinsForm: Bool { get }
}

extension FormControl {
    /// Only a text field without an action of its own submits its form with Enter.
    var joinsForm: Bool { false }
}

/// A form's control a person types into (a text field, an editor): its text and what it keeps
/// of a paste.
protocol FormField: FormControl {
    var placeholder: String { get }
    var text: MutableProperty<String> { get }
    /// What it keeps of `typed`, the whole text a person left in it.
    func kept(_ typed: String) -> String
}

extension Role {
    public static let form = Role(rawValue: "form")
}

extension Form: ElementKind {
    public var role: Role { .form }
    public var names: [String] { [] }
    public func plainLines(indent: String) -> [String] {
        children.flatMap { PlainText.render($0, indent: indent) }
    }
    public var children: [Element] { content + [submitButton.element] }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
