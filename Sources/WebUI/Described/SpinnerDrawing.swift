import ScreenKit

extension WebDrawing {
    /// A spinner turning while the work is under way.
    func draw(_ spinner: ScreenKit.Spinner) -> Element {
        let view = Spinner(label: spinner.label)
        ScreenRenderer.follow(spinner.isActive, view, \.isAnimating)
        return view
    }
}
