import Testing
@testable import TerminalUI

/// Issue 16: the renderer writes only what changed, and what it writes always leaves the
/// terminal showing exactly the frame (checked against the in-memory terminal).
@Suite struct RendererDiffTests {
    /// Every cell of `terminal` equals the buffer's (text and style).
    func shows(_ terminal: InMemoryTerminal, _ buffer: ScreenBuffer) -> Bool {
        let grid = terminal.grid
        for y in 0..<buffer.size.height {
            for x in 0..<buffer.size.width where grid[x, y] != buffer[x, y] {
                return false
            }
        }
        return true
    }

    @Test func randomFramesAlwaysLeaveTheTerminalShowingTheLastOne() {
        var generator = SplitMix64(seed: 16)
        let texts = ["a", "bc", "商品", "⭐️", "e\u{301}", "─│", " ", "xyz", "👍🏽", "列"]
        let styles = [Style.plain, .bold, Style(dim: true, foreground: .red), Style(reverse: true, background: .indexed(208)), Style(underline: true, foreground: .brightCyan)]
        for _ in 0..<200 {
            let size = Size(width: Int.random(in: 1...30, using: &generator), height: Int.random(in: 1...12, using: &generator))
            let terminal = InMemoryTerminal(size: size)
            var renderer = Renderer()
            var buffer = ScreenBuffer(size: size)
            for _ in 0..<12 {
                for _ in 0..<Int.random(in: 0...8, using: &generator) {
                    switch Int.random(in: 0..<10, using: &generator) {
                    case 0..<6:
                        let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in texts.randomElement(using: &generator)! }.joined()
                        buffer.write(text, x: Int.random(in: -2..<size.width, using: &generator), y: Int.random(in: 0..<size.height, using: &generator),
                                     style: styles.randomElement(using: &generator)!)
                    case 6..<9 where size.height >= 3:
                        // A band of rows moving as a list scrolls, with a new row coming in.
                        let top = Int.random(in: 0..<(size.height - 2), using: &generator)
                        let bottom = Int.random(in: (top + 2)..<size.height, using: &generator)
                        let distance = Int.random(in: 1...(bottom - top), using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
                        buffer.scroll(Scroll(top: top, bottom: bottom, distance: distance))
                        buffer.write(texts.randomElement(using: &generator)!, x: 0, y: distance > 0 ? bottom : top)
                    default:
                        buffer.fill(Rect(x: 0, y: Int.random(in: 0..<size.height, using: &generator), width: size.width, height: 1), style: styles.randomElement(using: &generator)!)
                    }
                }
                terminal.write(renderer.render(buffer))
                let shown = shows(terminal, buffer)
                #expect(shown, "\(size): the terminal shows\n\(terminal.grid.lines.joined(separator: "|\n"))|\ninstead of\n\(buffer.lines.joined(separator: "|\n"))|")
                if !shown { return }
                #expect(terminal.overflows == 0)
            }
        }
    }

    @Test func aListScrolledByARowIsMovedByTheTerminal() {
        let size = Size(width: 20, height: 8)
        var buffer = ScreenBuffer(size: size)
        for y in 0..<size.height { buffer.write("row \(y)", x: 0, y: y) }
        var renderer = Renderer()
        let terminal = InMemoryTerminal(size: size)
        terminal.write(renderer.render(buffer))
        buffer.scroll(Scroll(top: 1, bottom: 6, distance: 1))
        buffer.write("row 99", x: 0, y: 6)
        let bytes = renderer.render(buffer)
        terminal.write(bytes)
        #expect(shows(terminal, buffer))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("\u{1B}[2;7r\u{1B}[7;1H\n\u{1B}[r"), "a scroll region and one line feed")
        #expect(terminal.rowsWrittenLast == [6], "only the new row is written")
    }

    /// A 10,000-row list moving down a row at the bottom of its page: the terminal scrolls, and
    /// only the rows whose content is new are written (the row that came in, the row that lost
    /// the highlight and the one that got it, the scroll marker's row), not the whole screen.
    @MainActor @Test func aTenThousandRowListScrollingByOneRowWritesOnlyTheRowsThatChanged() {
        let list = ListView()
        list.rows = (0..<10_000).map { ListView.Row("Row \($0) · " + String(repeating: "lorem ipsum ", count: 5)) }
        let harness = Harness(list, size: Size(width: 80, height: 24))
        for _ in 0..<30 { harness.press(.down) }
        #expect(list.scrollOffset > 0, "the list has scrolled")
        let full = harness.terminal.bytesWritten / max(1, harness.terminal.writes)
        harness.press(.down)
        let rows = harness.terminal.rowsWrittenLast
        let bytes = harness.terminal.bytesWrittenLast
        #expect(rows.count <= 4, "a one-row scroll wrote rows \(rows.sorted())")
        #expect(bytes < 400, "a one-row scroll wrote \(bytes) bytes (a whole frame is about \(full))")
        #expect(harness.text.contains("› Row 31 ·"))
        var reference = Renderer()
        let fresh = InMemoryTerminal(size: Size(width: 80, height: 24))
        fresh.write(reference.render(harness.screen.render(size: Size(width: 80, height: 24))))
        #expect(harness.terminal.text == fresh.text, "the scrolled screen is the frame drawn afresh")
    }

    /// Equal rows are found with one memcmp only while a cell has no padding bytes.
    /// The renderer compares and hashes rows as bytes: a Cell must have no padding anywhere,
    /// between its fields (text, style, columns) or after them.
    @Test func aCellHasNoPadding() {
        #expect(MemoryLayout<Cell>.size == MemoryLayout<String>.size + MemoryLayout<Style>.size + MemoryLayout<UInt32>.size)
        #expect(MemoryLayout<Cell>.size == MemoryLayout<Cell>.stride)
    }

    @Test func emptyAndOneRowFramesRender() {
        for size in [Size(width: 0, height: 5), Size(width: 5, height: 0), Size.zero, Size(width: 3, height: 1)] {
            var renderer = Renderer()
            var buffer = ScreenBuffer(size: size)
            _ = renderer.render(buffer)
            if size.width > 0 && size.height > 0 { buffer.write("ab", x: 0, y: 0) }
            let bytes = renderer.render(buffer)
            #expect(size.width == 0 || size.height == 0 || String(decoding: bytes, as: UTF8.self).contains("ab"))
        }
    }

    @Test func aOneRowChangeWritesOneRow() {
        let size = Size(width: 200, height: 60)
        var buffer = ScreenBuffer(size: size)
        for y in 0..<size.height { buffer.write(String(repeating: "x", count: size.width), x: 0, y: y) }
        var renderer = Renderer()
        let terminal = InMemoryTerminal(size: size)
        terminal.write(renderer.render(buffer))
        buffer.write("row 1", x: 10, y: 30)
        terminal.write(renderer.render(buffer))
        #expect(terminal.rowsWrittenLast == [30])
        #expect(terminal.bytesWrittenLast <= 16)
    }
}

@Suite struct DisplayWidthFastPathTests {
    /// What `DisplayWidth.of` returned for a one-scalar grapheme before the fast paths.
    func reference(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || value == 0x200B || value == 0x200D { return 0 }
        return DisplayWidth.isWide(value) ? 2 : 1
    }

    @Test func theFastPathsAgreeWithThePropertyLookupForEveryScalar() {
        var mismatches: [String] = []
        for value in UInt32(1)..<0x3_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = Character(scalar)
            if DisplayWidth.of(character) != reference(scalar) || DisplayWidth.of(String(character)) != reference(scalar) {
                mismatches.append(String(value, radix: 16))
            }
        }
        #expect(mismatches.isEmpty, "U+\(mismatches.prefix(10))")
    }

    @Test func asciiFollowedByAJoiningScalarIsMeasuredAsOneGrapheme() {
        #expect(DisplayWidth.of("ae\u{301}b") == 3)
        #expect(DisplayWidth.of("x\u{200D}y") == 2)
        #expect(DisplayWidth.of("a\u{1B}b") == 2)
        #expect(DisplayWidth.of("#\u{FE0F}\u{20E3}!") == 3, "a keycap (# VS16 keycap) is an emoji: two columns, as before")
        #expect(DisplayWidth.of("Golden sunset · 商品") == 20)
    }
}
