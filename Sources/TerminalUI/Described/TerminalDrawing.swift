import ScreenKit

/// Draws each kind of a described screen's elements as the terminal's widget for it, one file
/// per kind (`TextDrawing.swift`, `FieldDrawing.swift`, …). ``ScreenRenderer`` uses it for each
/// element; a kind it lacks does not compile.
@MainActor
struct TerminalDrawing {
    /// Whether the element is drawn in a row (a horizontal stack): compact, no label above it.
    let inRow: Bool
}

extension TerminalDrawing: @MainActor ElementRenderer {
    typealias Drawn = View
}
