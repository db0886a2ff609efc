import ScreenKit

extension TerminalDrawing {
    /// A spinner turning while the work is under way.
    func draw(_ spinner: ScreenKit.Spinner) -> View {
        let view = Spinner(label: spinner.label)
        spinner.isActive.signal.bind(to: view, \.isAnimating)
        return view
    }
}
