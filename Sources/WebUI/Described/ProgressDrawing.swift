import ScreenKit

extension WebDrawing {
    /// A `<progress>` named by its label, its value and percentage following the view model's
    /// (`aria-valuetext` says the percentage), the percentage beside it.
    func draw(_ progress: ScreenKit.ProgressBar) -> Element {
        let bar = Element("progress", ["max": "1", "value": "0", "aria-label": progress.label, "aria-valuetext": "0%"])
        let percent = Label("0%", class: "dim")
        let shown = Stack(.horizontal, class: "progress", [Label(progress.label), bar, percent])
        let show: (Double) -> Void = { [weak bar, weak percent] fraction in
            let text = ScreenKit.ProgressBar.percent(fraction)
            bar?.setAttribute("value", String(fraction))
            bar?.setAttribute("aria-valuetext", text)
            percent?.text = text
        }
        if progress.value.isConstant {
            show(progress.fraction.value)
        } else {
            shown.receive(progress.fraction.signal, show)
        }
        return shown
    }
}
