import ScreenKit

extension WebDrawing {
    /// Its title as a heading above its content.
    func draw(_ section: ScreenKit.Section) -> Element {
        Stack(.vertical, class: "section", [Label(section.title, tag: "h3")] + section.content.map { ScreenRenderer.element(for: $0, images: images) })
    }
}
