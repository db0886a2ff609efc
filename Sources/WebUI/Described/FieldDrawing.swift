import ScreenKit

extension WebDrawing {
    /// An `<input>` bound both ways to the view model's text, busy while its Enter's action
    /// refuses; its label above it, or, in a row, compact (its placeholder says what it is).
    func draw(_ field: ScreenKit.TextField) -> Element {
        let input = field.isSecure
            ? SecureField(placeholder: field.placeholder, label: field.label)
            : TextField(placeholder: field.placeholder, label: field.label)
        input.bind(to: field.text)
        input.clearsOnSubmit = field.clearsOnSubmit
        ScreenRenderer.follow(field.isBusy, input, \.isBusy)
        if let submit = field.submit {
            input.submissions.perform(during: input) { _ in submit() }
        }
        // In a row the field is compact (its placeholder says what it is).
        return inRow ? input : Stack(.vertical, class: "field", [Label(field.label, class: "dim"), input])
    }
}
