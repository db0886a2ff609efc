#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns screen buffers into ANSI output, writing only the cells that changed since the last
/// frame, batched into one byte string per frame.
///
/// The first frame (and the first after a size change) clears the screen and draws every cell.
/// After that, rows equal to the last frame's are skipped whole; in the others each changed cell
/// costs a cursor move only when it does not follow the previous write, and a style change only
/// when its style differs from the last one written.
///
/// The cost is per cell, never per byte of text: the bytes are built directly (no `String`
/// concatenation), the cells carry their width (no grapheme measuring), styles compare as one
/// integer, and an unchanged row is found with one `memcmp`.
public struct Renderer: Sendable {
    private var previous: ScreenBuffer?
    /// The row hashes of `previous`, when the last frame worked them out (else empty).
    private var previousHashes: [UInt64] = []
    private var style: Style?
    private var cursorVisible: Bool?

    public init() {}

    /// Forgets the last frame, so the next one is drawn in full (after the terminal was
    /// cleared or resized behind the renderer's back).
    public mutating func invalidate() {
        previous = nil
        previousHashes = []
        style = nil
        cursorVisible = nil
    }

    /// The bytes that turn the previous frame into `buffer` on the terminal.
    public mutating func render(_ buffer: ScreenBuffer) -> [UInt8] {
        let size = buffer.size
        let full = previous?.size != size
        var writer = Writer(output: [], style: style)
        if full {
            previousHashes = []
            writer.output.reserveCapacity(size.width * size.height * 2 + 64)
            writer.output.append(contentsOf: Self.clearScreen)
            writer.style = .plain
            buffer.withCells { new in
                for y in 0..<size.height { writer.draw(row: y, of: new, width: size.width, from: 0) }
            }
        } else if var old = previous {
            var changed = Self.changedRows(from: old, to: buffer)
            let (found, hashes) = Self.scroll(from: old, to: buffer, changed: changed, oldHashes: previousHashes)
            previousHashes = hashes
            if let scroll = found {
                writer.scroll(scroll)
                old.scroll(scroll)
                changed = Self.changedRows(from: old, to: buffer)
            }
            buffer.withCells { new in
                old.withCells { old in
                    for y in 0..<size.height where changed[y] {
                        writer.update(row: y, from: old, to: new, width: size.width)
                    }
                }
            }
        }
        var output = writer.output
        writer.output = []
        style = writer.style
        if let cursor = buffer.cursor {
            output.moveCursor(x: cursor.x, y: cursor.y)
            if cursorVisible != true { output.append(contentsOf: Self.showCursor) }
            cursorVisible = true
        } else if cursorVisible != false {
            output.append(contentsOf: Self.hideCursor)
            cursorVisible = false
        }
        previous = buffer
        return output
    }

    private static let clearScreen = Array("\u{1B}[0m\u{1B}[2J".utf8)
    private static let showCursor = Array("\u{1B}[?25h".utf8)
    private static let hideCursor = Array("\u{1B}[?25l".utf8)

    /// Whether `count` cells from `start` are the same in both: first as bytes (equal bytes are
    /// equal cells), then cell by cell (equal text may be stored differently).
    /// With `other`, compares `old`'s cells from `start` with `new`'s from `other`.
    private static func rowsEqual(_ old: UnsafeBufferPointer<Cell>, _ new: UnsafeBufferPointer<Cell>, start: Int, count: Int, other: Int? = nil) -> Bool {
        guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return true }
        let newStart = other ?? start
        // SAFETY: both ranges are inside their buffers (`start + count` cells: the callers'
        // row arithmetic, on buffers of one size, checked by their preconditions); reading a
        // cell's bytes only compares them, never copies the value. Cell has no padding
        // (16 + 4 + 4 bytes, `aCellHasNoPadding`), so equal bytes are equal cells; unequal
        // bytes (equal text stored apart) fall back to comparing cells.
        if memcmp(oldBase + start, newBase + newStart, count * MemoryLayout<Cell>.stride) == 0 {
            return true
        }
        for offset in 0..<count where old[start + offset] != new[newStart + offset] { return false }
        return true
    }

    /// The scroll that turns most changed rows of `old` into rows of `new` (a list moving by a
    /// row), if it saves at least two rows: content moved up by `Scroll.distance` rows (down if
    /// negative) within rows `top...bottom`. Rows are matched by a hash of their bytes, then
    /// compared; looked for only when three rows or more changed.
    ///
    /// `oldHashes` are `old`'s row hashes if known (else empty); the new frame's come back with
    /// the scroll when they were worked out (else empty).
    static func scroll(from old: ScreenBuffer, to new: ScreenBuffer, changed: [Bool], oldHashes known: [UInt64] = []) -> (scroll: Scroll?, hashes: [UInt64]) {
        precondition(old.size == new.size, "Renderer.scroll: frames of one size only")
        let width = old.size.width, height = old.size.height
        guard height >= 3 else { return (nil, []) }
        return old.withCells { oldCells in
            new.withCells { newCells in
                guard changed.lazy.filter({ $0 }).count >= 3 else { return (nil, []) }
                let oldHashes = known.count == height ? known : (0..<height).map { rowHash(oldCells, start: $0 * width, count: width) }
                let newHashes = (0..<height).map { changed[$0] ? rowHash(newCells, start: $0 * width, count: width) : oldHashes[$0] }
                // For each distance, the run of new rows y with new[y] == old[y + distance] that
                // saves the most changed rows.
                var best: (scroll: Scroll, saved: Int)?
                for distance in -(height - 1)...(height - 1) where distance != 0 {
                    var y = max(0, -distance)
                    let end = min(height, height - distance)
                    while y < end {
                        guard newHashes[y] == oldHashes[y + distance] else { y += 1; continue }
                        var last = y, saved = 0
                        while last < end, newHashes[last] == oldHashes[last + distance] {
                            if changed[last] { saved += 1 }
                            last += 1
                        }
                        if saved >= 2, saved > best?.saved ?? 0 {
                            let scroll = distance > 0
                                ? Scroll(top: y, bottom: last - 1 + distance, distance: distance)
                                : Scroll(top: y + distance, bottom: last - 1, distance: distance)
                            best = (scroll, saved)
                        }
                        y = last
                    }
                }
                guard let scroll = best?.scroll else { return (nil, newHashes) }
                // The hashes matched; the rows must too.
                let rows = scroll.distance > 0 ? scroll.top...(scroll.bottom - scroll.distance) : (scroll.top - scroll.distance)...scroll.bottom
                for y in rows where !rowsEqual(oldCells, newCells, start: (y + scroll.distance) * width, count: width, other: y * width) {
                    return (nil, newHashes)
                }
                return (scroll, newHashes)
            }
        }
    }

    /// For each row, whether it differs between the frames (of one size).
    static func changedRows(from old: ScreenBuffer, to new: ScreenBuffer) -> [Bool] {
        precondition(old.size == new.size, "Renderer.changedRows: frames of one size only")
        let width = new.size.width, height = new.size.height
        return old.withCells { old in
            new.withCells { new in
                (0..<height).map { !rowsEqual(old, new, start: $0 * width, count: width) }
            }
        }
    }

    /// A hash of `count` cells' bytes from `start` (equal bytes, equal hash).
    private static func rowHash(_ cells: UnsafeBufferPointer<Cell>, start: Int, count: Int) -> UInt64 {
        guard let base = cells.baseAddress else { return 0 }
        // SAFETY: the `count` cells from `start` are inside `cells` (one row); their bytes are
        // read as words for hashing only, and all are initialised (Cell has no padding:
        // `aCellHasNoPadding`).
        let raw = UnsafeRawPointer(base + start)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for offset in stride(from: 0, to: count * MemoryLayout<Cell>.stride - 7, by: 8) {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Appends the bytes of one frame, following the terminal's cursor and style.
    private struct Writer {
        var output: [UInt8]
        var style: Style?
        /// Where the terminal's cursor is (x, y), or (-1, -1) when not known.
        var position = (x: -1, y: -1)

        /// Scrolls rows `top...bottom` of the terminal (a scroll region: line feeds at its bottom
        /// or reverse line feeds at its top), the new rows blank in the plain style.
        mutating func scroll(_ scroll: Scroll) {
            if style != .plain {
                Style.plain.appendSGR(to: &output)
                style = .plain
            }
            output.append(contentsOf: [0x1B, UInt8(ascii: "[")])
            output.appendDecimal(scroll.top + 1)
            output.append(UInt8(ascii: ";"))
            output.appendDecimal(scroll.bottom + 1)
            output.append(UInt8(ascii: "r"))
            if scroll.distance > 0 {
                output.moveCursor(x: 0, y: scroll.bottom)
                output.append(contentsOf: repeatElement(0x0A, count: scroll.distance))
            } else {
                output.moveCursor(x: 0, y: scroll.top)
                for _ in 0..<(-scroll.distance) { output.append(contentsOf: [0x1B, UInt8(ascii: "M")]) }
            }
            // Resetting the region puts the cursor home.
            output.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "r")])
            position = (-1, -1)
        }

        /// Draws row `y` from column `x` on, every cell.
        mutating func draw(row y: Int, of cells: UnsafeBufferPointer<Cell>, width: Int, from x: Int) {
            var x = x
            while x < width { x = put(cells, row: y, x: x, width: width) }
        }

        /// Draws the cells of row `y` that differ between `old` and `new`.
        mutating func update(row y: Int, from old: UnsafeBufferPointer<Cell>, to new: UnsafeBufferPointer<Cell>, width: Int) {
            let start = y * width
            var x = 0
            while x < width {
                let index = start + x
                if old[index] == new[index] && !widePartChanged(old, new, index: index, x: x, width: width) {
                    x += 1
                    continue
                }
                x = put(new, row: y, x: x, width: width)
            }
        }

        /// A wide grapheme whose right half changed must be rewritten from its left half.
        private func widePartChanged(_ old: UnsafeBufferPointer<Cell>, _ new: UnsafeBufferPointer<Cell>, index: Int, x: Int, width: Int) -> Bool {
            guard x + 1 < width, new[index + 1].isContinuation || old[index + 1].isContinuation else { return false }
            return old[index + 1] != new[index + 1]
        }

        /// Writes the grapheme at (`x`, `y`) (from its left half if `x` is the right half of a
        /// wide one) and returns the column after it.
        private mutating func put(_ cells: UnsafeBufferPointer<Cell>, row y: Int, x: Int, width: Int) -> Int {
            let rowStart = y * width
            let start = cells[rowStart + x].isContinuation && x > 0 ? x - 1 : x
            let lead = cells[rowStart + start]
            if position != (start, y) { output.moveCursor(x: start, y: y) }
            if style != lead.style {
                lead.style.appendSGR(to: &output)
                style = lead.style
            }
            let advance: Int
            if lead.isContinuation {
                output.append(UInt8(ascii: " "))
                advance = 1
            } else {
                let utf8 = lead.text.utf8
                if utf8.count == 1, let byte = utf8.first {
                    output.append(byte)
                } else {
                    output.append(contentsOf: utf8)
                }
                advance = max(1, Int(lead.columns))
            }
            position = (start + advance, y)
            return start + advance
        }
    }
}

/// Rows `top...bottom` of the screen move up by `distance` rows (down if negative); the rows
/// that come in are blank.
struct Scroll: Equatable {
    var top: Int
    var bottom: Int
    var distance: Int
}

extension ScreenBuffer {
    /// Moves rows as the terminal does for `scroll`.
    mutating func scroll(_ scroll: Scroll) {
        let width = size.width
        let rows = scroll.distance > 0 ? Array(scroll.top...scroll.bottom) : Array((scroll.top...scroll.bottom).reversed())
        for y in rows {
            let source = y + scroll.distance
            for x in 0..<width {
                self[x, y] = (scroll.top...scroll.bottom).contains(source) ? self[x, source] : .blank
            }
        }
    }
}

extension [UInt8] {
    /// Appends the CUP sequence that moves the cursor to (`x`, `y`), zero-based.
    mutating func moveCursor(x: Int, y: Int) {
        append(0x1B)
        append(UInt8(ascii: "["))
        appendDecimal(y + 1)
        append(UInt8(ascii: ";"))
        appendDecimal(x + 1)
        append(UInt8(ascii: "H"))
    }
}
