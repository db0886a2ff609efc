import ScreenKit

extension WebDrawing {
    /// Its fields, then its submit button.
    func draw(_ form: ScreenKit.Form) -> Element {
        Stack(.vertical, class: "form", form.children.map { ScreenRenderer.element(for: $0, images: images) })
    }
}
