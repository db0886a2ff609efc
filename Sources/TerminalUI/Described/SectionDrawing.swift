import ScreenKit

extension TerminalDrawing {
    /// Its title in bold above its content.
    func draw(_ section: ScreenKit.Section) -> View {
        let view = Stack(.vertical, [Label(section.title, style: .bold)] + section.content.map { ScreenRenderer.view(for: $0) })
        return ScreenRenderer.containsList(section) ? view : ScreenRenderer.fitting(view)
    }
}
