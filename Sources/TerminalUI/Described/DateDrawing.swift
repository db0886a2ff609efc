import ScreenKit

extension TerminalDrawing {
    /// A date field bound both ways to the view model's day (and time), its label before it (in
    /// a row, only the field); its message under it in red while it shows.
    func draw(_ picker: ScreenKit.DatePicker) -> View {
        let field = DateField(day: picker.day.value, time: picker.time?.value ?? nil, hasTime: picker.time != nil, in: picker.range)
        field.bind(to: picker)
        guard !inRow else { return field }
        let label = Label("\(picker.label):", style: .dim)
        label.widthPolicy = .fit
        let row = ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, field]))
        guard picker.message != nil else { return row }
        return ScreenRenderer.fitting(Stack(.vertical, [row, message(picker.shownMessage, of: field, use: picker.use)]))
    }
}
