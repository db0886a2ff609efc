import ScreenKit

extension TerminalDrawing {
    /// A segmented control, or for a menu a picker that opens, bound both ways to the selected
    /// index, its label before it; its message under it in red while it shows.
    func draw(_ choice: ScreenKit.Choice) -> View {
        let control: View
        if choice.style == .menu {
            let picker = Picker(choice.options, selectedIndex: choice.selection.value)
            picker.bind(to: choice)
            control = picker
        } else {
            let segments = SegmentedControl(choice.options, selectedIndex: choice.selection.value)
            segments.bind(to: choice)
            control = segments
        }
        // Its label before it, as plain text and the browser show it ("List: (•) …").
        let label = Label("\(choice.label):", style: .dim)
        label.widthPolicy = .fit
        let row = ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, control]))
        guard choice.message != nil else { return row }
        return ScreenRenderer.fitting(Stack(.vertical, [row, message(choice.shownMessage, of: control, use: choice.use)]))
    }
}
