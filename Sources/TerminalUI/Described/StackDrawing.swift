import ScreenKit

extension TerminalDrawing {
    /// A group down the screen is tight; across, its parts are a space apart. It takes the
    /// height its content needs, unless it holds a list.
    func draw(_ stack: ScreenKit.Stack) -> View {
        let row = stack.axis == .horizontal
        let view = Stack(row ? .horizontal : .vertical, spacing: row ? 1 : 0, stack.content.map { ScreenRenderer.view(for: $0, inRow: row) })
        return ScreenRenderer.containsList(stack) ? view : ScreenRenderer.fitting(view)
    }
}
