import ScreenKit

extension TerminalDrawing {
    /// `[x] Label`, bound both ways to the view model's `Bool`; its message under it in red
    /// while it shows.
    func draw(_ toggle: ScreenKit.Toggle) -> View {
        let view = Toggle(toggle.label, isOn: toggle.isOn.value)
        view.bind(to: toggle)
        toggle.isEnabled.signal.bind(to: view, \.isEnabled)
        guard toggle.message != nil else { return view }
        return ScreenRenderer.fitting(Stack(.vertical, [view, message(toggle.shownMessage, of: view, use: toggle.use)]))
    }
}
