import ScreenKit

extension TerminalDrawing {
    /// A text field bound both ways to the view model's text, busy while its Enter's action
    /// refuses; its label above it, or, in a row, compact (its placeholder says what it is).
    func draw(_ field: ScreenKit.TextField) -> View {
        let input = TextField(placeholder: field.placeholder, isSecure: field.isSecure)
        input.bind(to: field.text)
        field.isBusy.signal.bind(to: input, \.isBusy)
        if let submit = field.submit {
            input.submissions.perform(during: input) { _ in submit() }
        }
        // In a row the field is compact (its placeholder says what it is); down the screen
        // its label stands above it.
        return inRow ? input : ScreenRenderer.fitting(Stack(.vertical, [Label(field.label), input]))
    }
}
