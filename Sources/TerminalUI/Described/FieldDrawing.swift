import ScreenKit

extension TerminalDrawing {
    /// A text field bound both ways to the view model's text, busy while its Enter's action
    /// refuses; its label above it, or, in a row, compact (its placeholder says what it is); its
    /// message under it in red while it shows.
    func draw(_ field: ScreenKit.TextField) -> View {
        let input = TextField(placeholder: field.placeholder, isSecure: field.isSecure)
        input.bind(to: field)
        field.isBusy.signal.bind(to: input, \.isBusy)
        if let enter = field.onEnter {
            input.submissions.perform(during: input) { _ in enter() }
        }
        // In a row the field is compact (its placeholder says what it is); down the screen
        // its label stands above it.
        var parts: [View] = inRow ? [input] : [Label(field.label), input]
        if field.message != nil {
            parts.append(message(field.shownMessage, of: input, use: field.use))
        }
        return parts.count == 1 ? input : ScreenRenderer.fitting(Stack(.vertical, parts))
    }

    /// A field's message under it, in red while it shows (hidden while empty); the field takes
    /// the focus when its form asks (a submit refused).
    func message(_ shown: Live<String>, of input: View, use: FieldUse) -> Label {
        let message = Label("", style: Style(foreground: .red), wraps: true)
        message.isHidden = true
        input.receive(shown.signal) { [weak message] text in
            message?.text = text
            message?.isHidden = text.isEmpty
        }
        input.receive(use.focusRequests) { [weak input] in
            guard let input else { return }
            input.host?.focus(input)
        }
        return message
    }
}
