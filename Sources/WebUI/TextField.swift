import MVVM
import ScreenKit
import Signals

/// A text field (`<input>`): the user's edits arrive as ``textChanges``; setting ``value`` from
/// the server updates the field only if the page does not already show that value, so typing
/// is never echoed back.
public class TextField: Element {
    private var changes = EventSubject<String>()
    private var submits = EventSubject<String>()
    /// The value the page last reported.
    private var pageValue = ""
    private var current = ""
    private let isSecure: Bool
    /// What the field keeps of the text the page sent.
    private let keep: (String) -> String

    public init(placeholder: String = "", label: String? = nil) {
        isSecure = false
        keep = TypedText.cleaned
        // maxlength: the browser cuts a paste to what the server accepts, so the field and the
        // view model never disagree (a longer value would be refused).
        super.init("input", ["type": "text", "class": "input", "placeholder": placeholder, "value": "", "autocomplete": "off", "aria-label": label ?? placeholder,
                             "name": Self.name(label ?? placeholder), "maxlength": String(ClientMessage.maximumValueLength)])
    }

    /// A field drawn as `<tag>` with `attributes` that keeps `keep` of what the page sends (a
    /// ``TextArea``).
    init(tag: String, attributes: [String: String], keep: @escaping (String) -> String) {
        isSecure = false
        self.keep = keep
        super.init(tag, attributes)
    }

    /// The field's `name`, from its label: how a page rebuilt after a restart finds the field
    /// again to put back what it held ("User name" is `user-name`).
    static func name(_ label: String) -> String {
        var out = ""
        for character in label.lowercased() {
            if character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "field" : out
    }

    init(securePlaceholder placeholder: String, label: String?) {
        isSecure = true
        keep = TypedText.cleaned
        super.init("input", ["type": "password", "class": "input", "placeholder": placeholder, "autocomplete": "off", "aria-label": label ?? placeholder,
                             "name": Self.name(label ?? placeholder), "maxlength": String(ClientMessage.maximumValueLength)])
    }

    /// The field's text.
    public var value: String {
        get { current }
        set {
            guard newValue != current else { return }
            current = newValue
            // The attribute keeps a first render and a reset right (a password never goes into
            // the HTML); the value patch moves the live field, unless it already shows the value.
            if !isSecure {
                document?.muted += 1
                writeIntoHTML(newValue)
                document?.muted -= 1
            }
            if newValue != pageValue, let document {
                document.record(.value(id, newValue), for: self)
                // The page will show it: a later value equal to what the page last typed is a
                // change again.
                pageValue = newValue
            }
        }
    }

    /// Writes `value` into the element's HTML, for a first render and a page reset: its `value`
    /// attribute.
    func writeIntoHTML(_ value: String) {
        setAttribute("value", value)
    }

    /// Called when the field joins a document again (its page shown again): a password field
    /// then shows empty (its value is never in the HTML), so the value is cleared to match,
    /// and the view model hears it.
    override func didAttach(to document: Document, id: String) {
        super.didAttach(to: document, id: id)
        guard isSecure, !current.isEmpty else { return }
        current = ""
        pageValue = ""
        changes.send("")
    }

    /// Whether the view model empties the text when Enter submits it (a to-do's title): the page
    /// then empties the field the moment it sends the Enter, so what is typed next is never
    /// added to the text submitted, however slow the connection. If the view model keeps the
    /// text instead (it refused the submit), the page is given it back.
    public var clearsOnSubmit: Bool {
        get { attribute("data-mvvm-clears") != nil }
        set { setAttribute("data-mvvm-clears", newValue ? "" : nil) }
    }

    /// Whether the field's Enter cannot be taken now (its action refuses while it runs, and it
    /// runs): the page shows the field busy (`aria-busy`), and an Enter pressed in it is not sent
    /// but named in a notice. An Enter that reaches the server while the field is busy (sent
    /// before the page knew) is not applied either, and the page is told, to say the same.
    public var isBusy: Bool {
        get { attribute("aria-busy") != nil }
        set { setAttribute("aria-busy", newValue ? "true" : nil) }
    }
    private var refusals = 0

    /// Each edit the user makes, with the whole new text.
    public var textChanges: Signal<String, Never> { changes.signal }
    /// Enter in the field, with its text.
    public var submissions: Signal<String, Never> { submits.signal }

    open override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard target === self else { return false }
        switch event {
        case .input(let typed):
            // What every view layer keeps of a paste (terminal escape sequences and controls
            // dropped); when that differs from what the page shows, the page is given the
            // cleaned text, so the field and the view model agree.
            let text = keep(typed)
            pageValue = typed
            if text == current, text != typed, let document {
                document.record(.value(id, text), for: self)
                pageValue = text
            }
            value = text
            changes.send(text)
            return true
        case .submit:
            if isBusy {
                // Not applied, and said: the page names the Enter in a notice when this attribute
                // changes (each refusal a new value, so two in a row are two notices; a page
                // loaded again shows none).
                refusals += 1
                setAttribute("data-mvvm-refused", String(refusals))
                // The page emptied a clearing field as it sent the Enter: it gets its text back.
                if clearsOnSubmit, let document {
                    document.record(.value(id, current), for: self)
                    pageValue = current
                }
                return true
            }
            let clears = clearsOnSubmit
            // The page emptied the field as it sent the Enter.
            if clears { pageValue = "" }
            submits.send(current)
            // The view model kept the text (it refused the submit): the page shows it again.
            if clears, current != pageValue, let document {
                document.record(.value(id, current), for: self)
                pageValue = current
            }
            return true
        default:
            return false
        }
    }
}

/// A password field: the page masks what is typed, and the value is never written into the
/// page's HTML.
public final class SecureField: TextField {
    public override init(placeholder: String = "", label: String? = nil) {
        super.init(securePlaceholder: placeholder, label: label)
    }
}
