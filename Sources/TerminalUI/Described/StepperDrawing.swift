import ScreenKit

extension TerminalDrawing {
    /// "Copies: ‹ 3 ›" (or a slider's track), bound both ways to the view model's number, shown
    /// clamped to its range; ← → step it.
    func draw(_ stepper: ScreenKit.Stepper) -> View {
        let control = Stepper(
            value: stepper.clamped(stepper.value.value), in: stepper.range, isSlider: stepper.style == .slider,
            format: ScreenKit.Stepper.text, stepping: stepper.stepped)
        control.bind(to: stepper)
        let label = Label("\(stepper.label):", style: .dim)
        label.widthPolicy = .fit
        return ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, control]))
    }
}
