import MVVM
import Signals

/// A text field two-way bound to a property: the property's value shows in the field, and what
/// the person types sets it. A secure field shows dots; see ``SecureField`` for what a browser
/// is sent of it.
///
/// A field whose Enter hands its text on (a to-do's title, a chat message) says so with
/// `clearsOnSubmit`, and its view model empties the text as it takes it:
///
/// ```swift
/// TextField("New to-do", text: viewModel.newTitle, onSubmit: viewModel.add, clearsOnSubmit: true)
/// ```
///
/// A browser then empties the field the moment Enter is pressed, without waiting for its server,
/// so what is typed next is the next item however slow the connection; the field then shows
/// whatever the view model's text is after the submit (the text comes back if the view model
/// refused it and kept it). Make the action queue (`Action(whileExecuting: .queue)`) so an Enter
/// pressed while the one before is still being handled waits its turn instead of being refused.
///
/// A field may have a message of its own (``message(_:)``): what the view model finds wrong with
/// its text ("At least 3 characters"), shown under the field once the person has used it, and
/// on every field of a ``Form`` once they try to submit it.
///
/// A field whose action refuses while it runs (a login's password: `Action`'s default) is busy
/// while the action runs (``isBusy``): every renderer shows it, and an Enter pressed then is not
/// applied and says so (a browser names it in a notice, a terminal beside the field) — never
/// silently dropped.
public struct TextField: ElementConvertible {
    /// What the field is for, shown beside it; tests find the field by it.
    public let label: String
    public let placeholder: String
    public let text: MutableProperty<String>
    public let isSecure: Bool
    /// Runs when the person presses Enter in the field (`nil`: Enter submits the field's
    /// ``Form``, if it is in one; see ``onEnter``).
    public let submit: (() -> Void)?
    /// Whether the view model empties the text when Enter submits it, so a renderer may empty
    /// the field at once (see above).
    public let clearsOnSubmit: Bool
    /// Whether the field's Enter cannot be taken now: its action (or its form's) refuses while
    /// it runs, and it is running. A renderer draws the field busy and answers an Enter with a
    /// notice instead of submitting. Always `false` for a field whose Enter runs a closure or a
    /// queueing action.
    public var isBusy: Live<Bool> {
        submit == nil ? use.formLink?.isBusy ?? ownBusy : ownBusy
    }
    private let ownBusy: Live<Bool>
    /// What the view model finds wrong with the text (empty while nothing is); `nil`: the field
    /// has no message. See ``shownMessage``.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn field, and the form its Enter submits.
    public let use: FieldUse

    public init(
        _ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit submit: (() -> Void)? = nil,
        clearsOnSubmit: Bool = false
    ) {
        self.init(label: label, text: text, placeholder: placeholder, isSecure: false, submit: submit, clearsOnSubmit: clearsOnSubmit)
    }

    /// A field whose Enter applies `action` (a search's Go, a to-do's Add).
    public init<Output: Sendable, Failure: Error>(
        _ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit action: Action<Void, Output, Failure>,
        clearsOnSubmit: Bool = false
    ) {
        self.init(
            label: label, text: text, placeholder: placeholder, isSecure: false, submit: { action.execute() }, clearsOnSubmit: clearsOnSubmit,
            isBusy: Self.busy(while: action))
    }

    init(
        label: String, text: MutableProperty<String>, placeholder: String, isSecure: Bool, submit: (() -> Void)?, clearsOnSubmit: Bool = false,
        isBusy: Live<Bool> = .constant(false)
    ) {
        self.label = label
        self.text = text
        self.placeholder = placeholder
        self.isSecure = isSecure
        self.submit = submit
        self.clearsOnSubmit = clearsOnSubmit
        ownBusy = isBusy
        use = FieldUse()
    }

    /// The field with a message of its own: what the view model finds wrong with the text, empty
    /// while nothing is. It shows under the field once the person has used it (typed in it, or
    /// tried to submit its ``Form``), never before.
    ///
    /// ```swift
    /// TextField("User name", text: viewModel.userName).message(viewModel.userNameMessage)
    /// ```
    public func message(_ message: some LiveConvertible<String>) -> TextField {
        var field = self
        field.message = message.live
        return field
    }

    /// The message shown now: the view model's, once the field is used; empty before, and for a
    /// field without one.
    public var shownMessage: Live<String> { use.shown(message) }

    /// What the text is (a user name, an email, a password being set), for a browser's password
    /// manager and autofill; `nil`: nothing to fill in (a browser offers nothing).
    public private(set) var contentType: TextContentType?

    /// The field, saying what its text is (``TextContentType``): a browser's password manager
    /// fills in a `.username` and a `.currentPassword`, and offers a strong `.newPassword`.
    ///
    /// ```swift
    /// TextField("Email", text: viewModel.email).contentType(.email)
    /// SecureField("Password", text: viewModel.password).contentType(.currentPassword)
    /// ```
    public func contentType(_ type: TextContentType) -> TextField {
        var field = self
        field.contentType = type
        return field
    }

    /// What Enter in the field runs: its own action, or else its form's submit; `nil`: nothing.
    public var onEnter: (() -> Void)? {
        if let submit { return submit }
        // The closure holds the form (its field holds it weakly).
        return use.formLink.map { link in { link.submit() } }
    }

    /// Busy while `action` runs, if it refuses meanwhile (an action that queues takes every Enter).
    static func busy<Input, Output, Failure>(while action: Action<Input, Output, Failure>) -> Live<Bool> {
        action.whileExecuting == .queue ? .constant(false) : action.isExecuting.live
    }

    public var element: Element { Element(self) }
}

/// A text field whose text is masked (a password): dots on screen. In a browser, what the person
/// types is never echoed back to the page, and the text is never written into the page's HTML
/// (so a reload or a restored tab shows the field empty). A text the view model sets is sent to
/// the live field, as any field's: set it only to empty it (after a refused sign-in), since a
/// password a view model sends travels to the page.
public struct SecureField: ElementConvertible {
    public private(set) var field: TextField

    public init(_ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit submit: (() -> Void)? = nil) {
        field = TextField(label: label, text: text, placeholder: placeholder, isSecure: true, submit: submit)
    }

    /// A secure field whose Enter applies `action` (a login).
    public init<Output: Sendable, Failure: Error>(
        _ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit action: Action<Void, Output, Failure>
    ) {
        field = TextField(
            label: label, text: text, placeholder: placeholder, isSecure: true, submit: { action.execute() }, isBusy: TextField.busy(while: action))
    }

    /// The field with a message of its own (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> SecureField {
        var secure = self
        secure.field = field.message(message)
        return secure
    }

    /// The field, saying which password it holds (``TextField/contentType(_:)``):
    /// `.currentPassword` to sign in, `.newPassword` to set one.
    public func contentType(_ type: TextContentType) -> SecureField {
        var secure = self
        secure.field = field.contentType(type)
        return secure
    }

    public var element: Element { field.element }
}

extension Role {
    public static let field = Role(rawValue: "field")
    public static let secureField = Role(rawValue: "secureField")
}

extension TextField: ElementKind {
    public var role: Role { isSecure ? .secureField : .field }
    public var names: [String] { [label, placeholder] }
    /// "Label: value" (dots for a secure field; the placeholder in parentheses while empty), and
    /// under it "  ! message" while its message shows.
    public func plainLines(indent: String) -> [String] {
        let shown = isSecure ? String(repeating: "•", count: text.value.count) : text.value
        let value = shown.isEmpty && !placeholder.isEmpty ? "(\(placeholder))" : shown
        let message = shownMessage.value
        return [indent + "\(label): \(value)" + (isBusy.value ? " (busy)" : "")] + (message.isEmpty ? [] : [indent + "  ! " + message])
    }
    public var isWorking: Bool { isBusy.value }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension ValueControl where Value == String {
    /// The control is the described field, as every renderer's field is: two-way bound to its
    /// text, and used (so its message may show) from the person's first edit.
    @discardableResult
    public func bind(to field: TextField) -> any Disposable {
        bind(to: field.text, using: field.use, hasMessage: field.message != nil)
    }
}

extension ValueControl {
    /// Two-way bound to `value`; with a message, `use` is marked used on each of the person's
    /// changes (an edit, a flip; again after its form went through).
    func bind(to value: MutableProperty<Value>, using use: FieldUse, hasMessage: Bool) -> any Disposable {
        let composite = CompositeDisposable()
        composite += bind(to: value)
        if hasMessage {
            composite += receive(personChanges) { _ in use.markUsed() }
        }
        return composite
    }
}

extension TextField: FormField {
    /// A field without an action of its own submits its form with Enter.
    var joinsForm: Bool { submit == nil }
    /// What every view layer's field keeps: ``TypedText/cleaned(_:)``.
    func kept(_ typed: String) -> String { TypedText.cleaned(typed) }
}

/// What a field's text is, for autofill and password managers (HTML's `autocomplete` tokens).
public struct TextContentType: Sendable, Hashable {
    /// The token a browser reads (`current-password`).
    public let token: String

    public init(token: String) {
        self.token = token
    }

    /// The name an account signs in with.
    public static let username = TextContentType(token: "username")
    /// An email address (also an account's name, when it signs in with one: use `.username`
    /// there, which password managers pair with the password).
    public static let email = TextContentType(token: "email")
    /// The password an account has (to sign in).
    public static let currentPassword = TextContentType(token: "current-password")
    /// A password being set (sign-up, a change): a password manager offers a strong one.
    public static let newPassword = TextContentType(token: "new-password")
    /// A one-time code (sent by email or text).
    public static let oneTimeCode = TextContentType(token: "one-time-code")
    /// A person's full name.
    public static let name = TextContentType(token: "name")
}
