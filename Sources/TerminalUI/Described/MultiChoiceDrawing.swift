import ScreenKit

extension TerminalDrawing {
    /// A check list bound both ways to the chosen indices: its label above it (in a row, only
    /// the list), its message under it in red while it shows.
    func draw(_ choice: ScreenKit.MultiChoice) -> View {
        let list = CheckList(choice.options, selection: choice.selection.value)
        list.bind(to: choice)
        var parts: [View] = inRow ? [list] : [Label(choice.label), list]
        if choice.message != nil {
            parts.append(message(choice.shownMessage, of: list, use: choice.use))
        }
        return parts.count == 1 ? list : ScreenRenderer.fitting(Stack(.vertical, parts))
    }
}
