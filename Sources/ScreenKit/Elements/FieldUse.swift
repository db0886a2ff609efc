import MVVM
import Signals

/// What one drawn field knows of the person using it: whether they have used it (typed in it,
/// or tried to submit its ``Form``), the form its Enter submits, and the requests that it take
/// the focus. A field's message shows only once it is used (LiveView's `used_input?`): a form
/// does not greet a person with "Enter your name" before they started.
///
/// A renderer marks the field used on the person's first edit (``TextField``'s `bind(to:)` on a
/// control does), and moves the focus to the field when asked.
public final class FieldUse: Sendable {
    private let used = MutableProperty(false)
    private let focus = PublishSubject<Void, Never>()
    private let form = Locked(WeakLink())

    /// The form a field without an action of its own submits with Enter. The form holds its
    /// fields' uses (its submit marks them used), so a field holds its form weakly: a renderer
    /// holds it through the Enter and the button it draws, and the ``Form`` while it is
    /// described.
    final class FormLink: Sendable {
        let submit: @Sendable () -> Void
        let isBusy: Live<Bool>

        init(submit: @escaping @Sendable () -> Void, isBusy: Live<Bool>) {
            self.submit = submit
            self.isBusy = isBusy
        }
    }

    struct WeakLink: Sendable {
        weak var link: FormLink?
    }

    init() {}

    /// Whether the person typed in the field, or tried to submit its form.
    public var isUsed: Live<Bool> { used.live }

    /// What a field with `message` shows now: the message once the field is used, empty before
    /// (and always, without a message).
    public func shown(_ message: Live<String>?) -> Live<String> {
        guard let message else { return .constant("") }
        return message.combine(isUsed) { message, used in used ? message : "" }
    }

    /// The person used the field: its message may show from now on.
    public func markUsed() {
        if !used.value { used.value = true }
    }

    /// The field's form went through: its message waits for the next use again.
    func markUnused() {
        if used.value { used.value = false }
    }

    /// Each time the field should take the focus: its form's submit was refused, and it is the
    /// first field with a message.
    public var focusRequests: Signal<Void, Never> { focus.signal }

    func requestFocus() {
        focus.send(())
    }

    var formLink: FormLink? { form.withLock { $0.link } }

    func join(_ link: FormLink) {
        form.withLock { $0.link = link }
    }
}
