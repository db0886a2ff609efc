import ScreenKit

extension WebDrawing {
    /// A group of checkboxes (`<fieldset>`, named by its `<legend>`) bound both ways to the
    /// chosen indices, and its message (as a field's: the group's `aria-describedby` names it,
    /// and its first box takes the focus when a submit is refused).
    func draw(_ choice: ScreenKit.MultiChoice) -> Element {
        let list = CheckList(choice.options, selection: choice.selection.value, label: choice.label)
        list.bind(to: choice)
        if choice.message != nil {
            list.append(message(choice.shownMessage, of: list, use: choice.use, focusing: list.boxes.first?.box))
        }
        return list
    }
}
