import ScreenKit

extension TerminalDrawing {
    /// Its fields, then its submit button.
    func draw(_ form: ScreenKit.Form) -> View {
        let view = Stack(.vertical, form.children.map { ScreenRenderer.view(for: $0) })
        return ScreenRenderer.containsList(form) ? view : ScreenRenderer.fitting(view)
    }
}
