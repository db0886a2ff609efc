import ScreenKit

extension WebDrawing {
    /// A checkbox with its label, bound both ways to the view model's `Bool`; its message (as a
    /// field's, named by the checkbox's `aria-describedby`).
    func draw(_ toggle: ScreenKit.Toggle) -> Element {
        let view = Toggle(toggle.label, isOn: toggle.isOn.value)
        view.bind(to: toggle)
        ScreenRenderer.follow(toggle.isEnabled, view, \.isEnabled)
        guard toggle.message != nil else { return view }
        return Stack(.vertical, class: "field", [view, message(toggle.shownMessage, of: view.box, use: toggle.use)])
    }
}
