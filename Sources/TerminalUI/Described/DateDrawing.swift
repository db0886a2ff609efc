import ScreenKit

extension TerminalDrawing {
    /// A date field bound both ways to the view model's day (and time), its label before it (in
    /// a row, only the field); its message under it in red while it shows: a day past the range
    /// stopped at its end, else the view model's own.
    func draw(_ picker: ScreenKit.DatePicker) -> View {
        let field = DateField(
            day: picker.day.value, time: picker.time?.value ?? nil, hasTime: picker.time != nil, in: picker.range,
            outOfRange: picker.outOfRange?.message ?? "", paste: picker.entry(from:))
        field.bind(to: picker)
        // One message under it: a day that stopped at the range's end says so, else the view
        // model's own once the picker is used (as the browser's refusals do).
        let said = message(field.message(of: picker), of: field, use: picker.use)
        guard !inRow else { return ScreenRenderer.fitting(Stack(.vertical, [field, said])) }
        let label = Label("\(picker.label):", style: .dim)
        label.widthPolicy = .fit
        let row = ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, field]))
        return ScreenRenderer.fitting(Stack(.vertical, [row, said]))
    }
}
