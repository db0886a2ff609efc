import ScreenKit

extension WebDrawing {
    /// An `<input type=number>` (a slider: `type=range`) named by its label, bound both ways to
    /// the view model's number, shown clamped; text that is not a number is refused with a
    /// message under it (named by the input's `aria-describedby`, with `aria-invalid`) until a
    /// number is taken.
    func draw(_ stepper: ScreenKit.Stepper) -> Element {
        let input = NumberField(
            value: stepper.clamped(stepper.value.value), in: stepper.range, step: stepper.step, isSlider: stepper.style == .slider,
            label: stepper.label, parse: ScreenKit.Stepper.number(in:), clamp: stepper.clamped, format: ScreenKit.Stepper.text)
        input.bind(to: stepper)
        let message = FieldMessage(describing: input)
        let say: (String) -> Void = { [weak input, weak message] text in
            message?.text = text
            message?.isHidden = text.isEmpty
            input?.setAttribute("aria-invalid", text.isEmpty ? nil : "true")
        }
        input.receive(input.refusedTexts) { say(ScreenKit.Stepper.message(for: $0)) }
        input.receive(input.valueChanges) { _ in say("") }
        // In a row the label goes (the field is named by it still); the message stays with the
        // field, or a refusal would say nothing.
        if inRow { return Stack(.vertical, class: "stepper", [input, message]) }
        var row: [Element] = [FieldLabel(stepper.label + ":", for: input), input]
        if stepper.style == .slider {
            // A range input shows no number: the value beside it, as the terminal's slider has.
            let shown = Label(ScreenKit.Stepper.text(stepper.clamped(stepper.value.value)), class: "dim value")
            input.receive(stepper.value.signal) { [weak shown] value in shown?.text = ScreenKit.Stepper.text(stepper.clamped(value)) }
            row.append(shown)
        }
        return Stack(.vertical, class: "field stepper", [Stack(.horizontal, row), message])
    }
}
