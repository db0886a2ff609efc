import ScreenKit

extension WebDrawing {
    /// A `<textarea>` bound both ways to the view model's text; its label above it (in a row,
    /// only the textarea), its count under it if it has a maximum length of its own ("12/500",
    /// following the text), and its message (as a field's).
    func draw(_ editor: ScreenKit.TextEditor) -> Element {
        let input = TextArea(placeholder: editor.placeholder, label: editor.label, rows: editor.lines, maxLength: editor.maxLength, keep: editor.kept)
        input.bind(to: editor)
        var parts: [Element] = inRow ? [input] : [FieldLabel(editor.label, for: input), input]
        if editor.showsCount {
            let count = Label(editor.count(of: editor.text.value), class: "dim count")
            input.receive(editor.text.signal) { [weak count] text in count?.text = editor.count(of: text) }
            parts.append(count)
        }
        if editor.message != nil {
            parts.append(message(editor.shownMessage, of: input, use: editor.use))
        }
        return parts.count == 1 ? input : Stack(.vertical, class: "field", parts)
    }
}
