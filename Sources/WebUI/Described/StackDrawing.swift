import ScreenKit

extension WebDrawing {
    /// Its elements down the page or across it.
    func draw(_ stack: ScreenKit.Stack) -> Element {
        let row = stack.axis == .horizontal
        return Stack(row ? .horizontal : .vertical, stack.content.map { ScreenRenderer.element(for: $0, images: images, inRow: row) })
    }
}
