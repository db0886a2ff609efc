import ScreenKit

extension WebDrawing {
    /// A file input (``FileInput``) bound both ways to the view model's files, its label
    /// before it (in a row, only the input); one message under it, named by the input's
    /// `aria-describedby`: what was refused ("“a.exe” is not a kind of file this field takes"),
    /// else the view model's own once the field is used.
    func draw(_ field: ScreenKit.FileField) -> Element {
        let input = FileInput(label: field.label, accept: field.acceptList, multiple: field.maxCount > 1) { name, size, count in
            field.refusal(name: name, size: size, alongside: count)?.message
        }
        input.bind(to: field)
        let said = message(input.message(of: field), of: input.input, use: field.use)
        let row: Element = inRow ? input : Stack(.vertical, [FieldLabel(field.label, for: input.input), input])
        return Stack(.vertical, class: "field files", [row, said])
    }
}
