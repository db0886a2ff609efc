import ScreenKit

extension WebDrawing {
    /// A date field (and a time field, if the picker has a time) bound both ways to the view
    /// model's day and time, its label before it (in a row, only the fields); one message under
    /// it, named by the day's and the time's `aria-describedby`: what a text the server refused was told
    /// ("“2026-02-30” is not a day"), else the view model's own once the picker is used.
    func draw(_ picker: ScreenKit.DatePicker) -> Element {
        let field = DateField(
            day: picker.day.value, time: picker.time?.value ?? nil, hasTime: picker.time != nil, in: picker.range, label: picker.label,
            parseDay: picker.day(from:), parseTime: picker.time(from:))
        field.bind(to: picker)
        let said = message(field.message(of: picker), of: field.dayInput, also: field.timeInput.map { [$0] } ?? [], use: picker.use)
        let row: Element = inRow ? field : Stack(.horizontal, [FieldLabel(picker.label + ":", for: field.dayInput), field])
        return Stack(.vertical, class: "field date", [row, said])
    }
}
