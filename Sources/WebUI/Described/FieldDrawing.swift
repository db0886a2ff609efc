import ScreenKit

extension WebDrawing {
    /// An `<input>` bound both ways to the view model's text, busy while its Enter's action
    /// refuses; its label above it, or, in a row, compact (its placeholder says what it is); its
    /// message under it, named by the input's `aria-describedby`, with `aria-invalid` while it
    /// shows.
    func draw(_ field: ScreenKit.TextField) -> Element {
        let input = field.isSecure
            ? SecureField(placeholder: field.placeholder, label: field.label)
            : TextField(placeholder: field.placeholder, label: field.label)
        input.bind(to: field)
        if let type = field.contentType { input.setAttribute("autocomplete", type.token) }
        input.clearsOnSubmit = field.clearsOnSubmit
        ScreenRenderer.follow(field.isBusy, input, \.isBusy)
        if let enter = field.onEnter {
            input.submissions.perform(during: input) { _ in enter() }
        }
        var parts: [Element] = inRow ? [input] : [FieldLabel(field.label, for: input), input]
        if field.message != nil {
            parts.append(message(field.shownMessage, of: input, use: field.use))
        }
        // In a row the field is compact (its placeholder says what it is).
        return parts.count == 1 ? input : Stack(.vertical, class: "field", parts)
    }

    /// A field's message under it, named by the field's `aria-describedby` (and `also`'s: a
    /// date's time), with `aria-invalid` on them while it shows (hidden while empty); the field
    /// (or `focusing`: a group's first box) takes the focus when its form asks (a submit refused).
    func message(_ shown: Live<String>, of input: Element, also: [Element] = [], use: FieldUse, focusing: Element? = nil) -> FieldMessage {
        let message = FieldMessage(describing: [input] + also)
        input.receive(shown.signal) { [weak input, weak message] text in
            message?.text = text
            message?.isHidden = text.isEmpty
            for field in [input].compactMap({ $0 }) + also { field.setAttribute("aria-invalid", text.isEmpty ? nil : "true") }
        }
        let target = focusing ?? input
        input.receive(use.focusRequests) { [weak target] in
            guard let target, let document = target.document else { return }
            document.focus(target)
        }
        return message
    }
}

/// A field's label (`<label class="dim" for>`): a click on it focuses its field (a file
/// field's opens the browser's chooser), as a label a page writes by hand does. Its `for` is
/// the field's id, which the field has only once both are on the page: it is written with the
/// label's HTML, with no patch of its own.
final class FieldLabel: Element {
    private weak var control: Element?

    init(_ text: String, for control: Element) {
        self.control = control
        super.init("label", ["class": "dim"], text: text)
    }

    override func render(into out: inout String) {
        if let id = control?.id, !id.isEmpty, attribute("for") != id {
            document?.muted += 1
            setAttribute("for", id)
            document?.muted -= 1
        }
        super.render(into: &out)
    }
}

/// A field's message (`<p class="field-message">`): its field's `aria-describedby` names it,
/// whatever id the page gives it.
final class FieldMessage: Element {
    private struct Described { weak var field: Element? }
    private let fields: [Described]

    init(describing fields: [Element]) {
        self.fields = fields.map { Described(field: $0) }
        super.init("p", ["class": "field-message", "hidden": ""], text: "")
    }

    convenience init(describing field: Element) {
        self.init(describing: [field])
    }

    override func didAttach(to document: Document, id: String) {
        super.didAttach(to: document, id: id)
        // The field joined the page just before (it comes first): its HTML is not written yet,
        // so the attribute goes into it, with no patch of its own.
        document.muted += 1
        for described in fields { described.field?.setAttribute("aria-describedby", id) }
        document.muted -= 1
    }
}
