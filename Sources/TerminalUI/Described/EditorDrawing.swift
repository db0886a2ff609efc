import ScreenKit

extension TerminalDrawing {
    /// A text editor bound both ways to the view model's text; its label above it (in a row,
    /// only the editor), its count under it if it has a maximum length of its own, and its
    /// message under that in red while it shows.
    func draw(_ editor: ScreenKit.TextEditor) -> View {
        let input = TextEditor(
            placeholder: editor.placeholder, maxLength: editor.maxLength, showsCount: editor.showsCount, lines: editor.lines)
        input.bind(to: editor)
        var parts: [View] = inRow ? [input] : [Label(editor.label), input]
        if editor.message != nil {
            parts.append(message(editor.shownMessage, of: input, use: editor.use))
        }
        return parts.count == 1 ? input : ScreenRenderer.fitting(Stack(.vertical, parts))
    }
}
