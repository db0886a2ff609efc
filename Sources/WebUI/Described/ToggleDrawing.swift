import ScreenKit

extension WebDrawing {
    /// A checkbox with its label, bound both ways to the view model's `Bool`.
    func draw(_ toggle: ScreenKit.Toggle) -> Element {
        let view = Toggle(toggle.label, isOn: toggle.isOn.value)
        view.bind(to: toggle.isOn)
        ScreenRenderer.follow(toggle.isEnabled, view, \.isEnabled)
        return view
    }
}
