import WebUI

extension Document {
    /// A page showing `content` after `before` labels (so that its numbering differs from a page
    /// with none), drawn once: its patches are taken by hand (`flush()`, `pendingPatches`). What
    /// a test of one element starts from.
    @MainActor
    public static func drawn(showing content: Element, after before: Int = 0) -> Document {
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren((0..<before).map { _ in Label("x") } + [content])
        _ = document.render()
        return document
    }
}
