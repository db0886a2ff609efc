import ScreenKit

extension WebDrawing {
    /// A segmented control (a tab list), or for a menu a `<select>`, bound both ways to the
    /// selected index, its label before it (in a row, its name only); its message under it (as
    /// a field's: the control's `aria-describedby` names it; a refused submit focuses the
    /// `<select>`, or the chosen segment).
    func draw(_ choice: ScreenKit.Choice) -> Element {
        let control: Element
        var focusing: Element?
        if choice.style == .menu {
            // A `<select>`, named by its label, bound both ways to the selected index.
            let picker = Picker(choice.options, selectedIndex: choice.selection.value, label: choice.label)
            picker.bind(to: choice)
            control = picker
        } else {
            let segments = SegmentedControl(choice.options)
            segments.selectedIndex = choice.selection.value
            segments.bind(to: choice)
            segments.setAttribute("aria-label", choice.label)
            // Named by its label: a restart under the page gives the choice back.
            segments.setAttribute("data-name", TextField.name(choice.label))
            focusing = segments.children.first
            control = segments
        }
        // Its label before it, as the terminal and plain text show it; in a row, its name only.
        let row = inRow ? control : Stack(.horizontal, class: "field choice", [choice.style == .menu ? FieldLabel(choice.label + ":", for: control) as Element : Label(choice.label + ":", class: "dim"), control])
        guard choice.message != nil else { return row }
        return Stack(.vertical, class: "field", [row, message(choice.shownMessage, of: control, use: choice.use, focusing: focusing)])
    }
}
