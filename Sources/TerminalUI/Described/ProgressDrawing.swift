import ScreenKit

extension TerminalDrawing {
    /// "Label ████████░░░░ 66%": a bar of 20 cells, following the view model's value.
    func draw(_ progress: ScreenKit.ProgressBar) -> View {
        let label = Label("", wraps: true)
        let text: @Sendable (Double) -> String = { [title = progress.label] fraction in
            "\(title) \(ScreenKit.ProgressBar.bar(fraction, width: 20, done: "█", left: "░")) \(ScreenKit.ProgressBar.percent(fraction))"
        }
        progress.fraction.map(text).signal.bind(to: label, \.text)
        return label
    }
}
