import ScreenKit

extension TerminalDrawing {
    /// `[x] Label`, bound both ways to the view model's `Bool`.
    func draw(_ toggle: ScreenKit.Toggle) -> View {
        let view = Toggle(toggle.label, isOn: toggle.isOn.value)
        view.bind(to: toggle.isOn)
        toggle.isEnabled.signal.bind(to: view, \.isEnabled)
        return view
    }
}
