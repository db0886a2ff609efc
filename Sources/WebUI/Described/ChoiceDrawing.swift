import ScreenKit

extension WebDrawing {
    /// A segmented control (a tab list) bound both ways to the selected index, its label before
    /// it; in a row, its name only.
    func draw(_ choice: ScreenKit.Choice) -> Element {
        let control = SegmentedControl(choice.options)
        control.selectedIndex = choice.selection.value
        control.bind(to: choice.selection)
        control.setAttribute("aria-label", choice.label)
        // Its label before it, as the terminal and plain text show it; in a row, its name only.
        return inRow ? control : Stack(.horizontal, class: "field choice", [Label(choice.label + ":", class: "dim"), control])
    }
}
