import ScreenKit

/// Draws each kind of a described screen's elements as the page's element for it, one file per
/// kind (`TextDrawing.swift`, `FieldDrawing.swift`, …). ``ScreenRenderer`` uses it for each
/// element; a kind it lacks does not compile.
struct WebDrawing: ElementRenderer {
    typealias Drawn = Element
    /// What the page loads for an image.
    let images: ScreenRenderer.ImageSource
    /// Whether the element is drawn in a row (a horizontal stack): compact, no label beside it.
    let inRow: Bool
}
