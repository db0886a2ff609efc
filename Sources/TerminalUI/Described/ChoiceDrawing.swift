import ScreenKit

extension TerminalDrawing {
    /// A segmented control bound both ways to the selected index, its label before it.
    func draw(_ choice: ScreenKit.Choice) -> View {
        let control = SegmentedControl(choice.options, selectedIndex: choice.selection.value)
        control.bind(to: choice.selection)
        // Its label before it, as plain text and the browser show it ("List: (•) …").
        let label = Label("\(choice.label):", style: .dim)
        label.widthPolicy = .fit
        return ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, control]))
    }
}
