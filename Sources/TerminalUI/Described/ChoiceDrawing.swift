import ScreenKit

extension TerminalDrawing {
    /// A segmented control, or for a menu a picker that opens, bound both ways to the selected
    /// index, its label before it.
    func draw(_ choice: ScreenKit.Choice) -> View {
        let control: View
        if choice.style == .menu {
            let picker = Picker(choice.options, selectedIndex: choice.selection.value)
            picker.bind(to: choice.selection)
            control = picker
        } else {
            let segments = SegmentedControl(choice.options, selectedIndex: choice.selection.value)
            segments.bind(to: choice.selection)
            control = segments
        }
        // Its label before it, as plain text and the browser show it ("List: (•) …").
        let label = Label("\(choice.label):", style: .dim)
        label.widthPolicy = .fit
        return ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, control]))
    }
}
