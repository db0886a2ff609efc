import ScreenKit

extension WebDrawing {
    /// A segmented control (a tab list), or for a menu a `<select>`, bound both ways to the
    /// selected index, its label before it; in a row, its name only.
    func draw(_ choice: ScreenKit.Choice) -> Element {
        if choice.style == .menu {
            // A `<select>`, named by its label, bound both ways to the selected index.
            let picker = Picker(choice.options, selectedIndex: choice.selection.value, label: choice.label)
            picker.bind(to: choice.selection)
            return inRow ? picker : Stack(.horizontal, class: "field choice", [Label(choice.label + ":", class: "dim"), picker])
        }
        let control = SegmentedControl(choice.options)
        control.selectedIndex = choice.selection.value
        control.bind(to: choice.selection)
        control.setAttribute("aria-label", choice.label)
        // Named by its label: a restart under the page gives the choice back.
        control.setAttribute("data-name", TextField.name(choice.label))
        // Its label before it, as the terminal and plain text show it; in a row, its name only.
        return inRow ? control : Stack(.horizontal, class: "field choice", [Label(choice.label + ":", class: "dim"), control])
    }
}
