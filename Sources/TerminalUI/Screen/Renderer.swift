/// Turns screen buffers into ANSI output, writing only the cells that changed since the last
/// frame, batched into one byte string per frame.
///
/// The first frame (and the first after a size change) clears the screen and draws every cell.
/// After that, each changed cell costs a cursor move only when it does not follow the previous
/// write, and a style change only when its style differs from the last one written.
public struct Renderer: Sendable {
    private var previous: ScreenBuffer?
    private var style: Style?
    private var cursorVisible: Bool?

    public init() {}

    /// Forgets the last frame, so the next one is drawn in full (after the terminal was
    /// cleared or resized behind the renderer's back).
    public mutating func invalidate() {
        previous = nil
        style = nil
        cursorVisible = nil
    }

    /// The bytes that turn the previous frame into `buffer` on the terminal.
    public mutating func render(_ buffer: ScreenBuffer) -> [UInt8] {
        var output = ""
        var position: Point?
        let full = previous?.size != buffer.size
        if full {
            output += "\u{1B}[0m\u{1B}[2J"
            style = .plain
        }
        let width = buffer.size.width
        for y in 0..<buffer.size.height {
            var x = 0
            while x < width {
                let cell = buffer[x, y]
                if !full, let previous, previous[x, y] == cell, !widePartChanged(previous, buffer, x: x, y: y) {
                    x += 1
                    continue
                }
                // Start a wide grapheme at its left half.
                var start = x
                if cell.isContinuation && x > 0 { start = x - 1 }
                let lead = buffer[start, y]
                if position != Point(x: start, y: y) {
                    output += "\u{1B}[\(y + 1);\(start + 1)H"
                }
                if style != lead.style {
                    output += lead.style.sgr
                    style = lead.style
                }
                let text = lead.isContinuation ? " " : lead.text
                output += text
                let advance = lead.isContinuation ? 1 : max(1, DisplayWidth.of(text))
                position = Point(x: start + advance, y: y)
                x = start + advance
            }
        }
        if let cursor = buffer.cursor {
            output += "\u{1B}[\(cursor.y + 1);\(cursor.x + 1)H"
            if cursorVisible != true { output += "\u{1B}[?25h" }
            cursorVisible = true
        } else if cursorVisible != false {
            output += "\u{1B}[?25l"
            cursorVisible = false
        }
        previous = buffer
        return Array(output.utf8)
    }

    /// A wide grapheme whose right half changed must be rewritten from its left half.
    private func widePartChanged(_ old: ScreenBuffer, _ new: ScreenBuffer, x: Int, y: Int) -> Bool {
        guard x + 1 < new.size.width, new[x + 1, y].isContinuation || old[x + 1, y].isContinuation else { return false }
        return old[x + 1, y] != new[x + 1, y]
    }
}
