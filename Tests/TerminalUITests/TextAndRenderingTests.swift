import Dispatch
import Testing
@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test func asciiCJKEmojiAndCombiningMarks() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("商品列表") == 8)
        #expect(DisplayWidth.of("⭐️") == 2)
        #expect(DisplayWidth.of("⭐️⭐️⭐️") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1, "e + combining acute takes one column")
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("你好!") == 5)
        #expect(DisplayWidth.truncate("商品列表 Goods", to: 7) == "商品列…")
    }
}

@Suite struct ScreenBufferTests {
    @Test func wideCharactersTakeTwoCellsAndNeverStraddleTheEdge() {
        var buffer = ScreenBuffer(size: Size(width: 5, height: 2))
        buffer.write("ab商品", x: 0, y: 0)
        #expect(buffer.lines[0] == "ab商 ", "the second wide grapheme does not fit in the last column")
        buffer.write("⭐️⭐️⭐️", x: 0, y: 1)
        #expect(buffer.lines[1] == "⭐️⭐️ ")
    }

    /// Found by the renderer's random frames: a wide grapheme cut at the right edge became a
    /// space over the right half of another wide grapheme, whose left half stayed, two columns
    /// wide with nothing after it.
    @Test func aWideCharacterCutAtTheEdgeBlanksTheWideOneItLandsOn() {
        var buffer = ScreenBuffer(size: Size(width: 2, height: 1))
        buffer.write("商", x: 0, y: 0)
        buffer.write("⭐️", x: 1, y: 0)
        #expect(buffer.lines[0] == "  ")
        #expect(!buffer[0, 0].isContinuation && !buffer[1, 0].isContinuation)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
        buffer.write("商品", x: 0, y: 0)
        buffer.write("x", x: 1, y: 0)
        #expect(buffer.lines[0] == " x品")
    }

    /// Issue 16: a Tab, a zero-width space or a mark with no base took the previous cell along
    /// with its grapheme, and the renderer died forming one `Character` of the two.
    @Test func aGraphemeThatTakesNoColumnNeverSharesACell() {
        var buffer = ScreenBuffer(size: Size(width: 12, height: 1))
        buffer.write("a\tb\u{200B}c\u{1B}d\u{85}e", x: 0, y: 0)
        #expect(buffer.lines[0] == "abcde       ")
        buffer.write("\u{301}x\u{200B}", x: 6, y: 0)
        #expect(buffer.lines[0] == "abcde x     ")
        for x in 0..<12 { #expect(buffer[x, 0].text.count <= 1) }
        var renderer = Renderer()
        let terminal = InMemoryTerminal(size: buffer.size)
        terminal.write(renderer.render(buffer))
        #expect(terminal.text == "abcde x")
    }

    @Test func clippingAndCombiningMarks() {
        var buffer = ScreenBuffer(size: Size(width: 6, height: 1))
        buffer.write("cafe\u{301} au lait", x: 0, y: 0, clip: Rect(x: 0, y: 0, width: 5, height: 1))
        #expect(buffer.text == "café")
    }
}

@Suite struct RendererTests {
    @Test func outputReproducesTheBufferOnATerminal() {
        var buffer = ScreenBuffer(size: Size(width: 20, height: 3))
        buffer.write("Hello 世界", x: 1, y: 0, style: .bold)
        buffer.write("⭐️⭐️ rated", x: 0, y: 2, style: Style(foreground: .yellow))
        var renderer = Renderer()
        let terminal = InMemoryTerminal(size: buffer.size)
        terminal.write(renderer.render(buffer))
        #expect(terminal.text == buffer.text)
        #expect(terminal.style(x: 1, y: 0).bold)
        #expect(terminal.style(x: 0, y: 2).foreground == .yellow)
    }

    @Test func aOneCharacterChangeWritesOnlyThatCell() {
        let size = Size(width: 120, height: 40)
        var buffer = ScreenBuffer(size: size)
        for y in 0..<size.height { buffer.write(String(repeating: "x", count: size.width), x: 0, y: y) }
        var renderer = Renderer()
        let full = renderer.render(buffer)
        #expect(full.count > size.width * size.height)
        buffer.write("y", x: 60, y: 20)
        let change = renderer.render(buffer)
        // A cursor move (ESC [21;61H = 8 bytes) and the character.
        #expect(change.count <= 10, "a one-cell change wrote \(change.count) bytes")
        #expect(String(decoding: change, as: UTF8.self) == "\u{1B}[21;61Hy")
        #expect(renderer.render(buffer).isEmpty, "an unchanged frame writes nothing")
    }

    @Test func changedWideCharactersAreRewrittenWhole() {
        var buffer = ScreenBuffer(size: Size(width: 10, height: 1))
        buffer.write("商品", x: 0, y: 0)
        var renderer = Renderer()
        let terminal = InMemoryTerminal(size: buffer.size)
        terminal.write(renderer.render(buffer))
        buffer.write("列", x: 2, y: 0)
        terminal.write(renderer.render(buffer))
        #expect(terminal.text == "商列")
    }

    /// Measured: the render and diff of a full 200×60 screen (numbers in the session note).
    @Test func fullScreenRenderAndDiffTime() {
        let size = Size(width: 200, height: 60)
        var renderer = Renderer()
        var frames: [ScreenBuffer] = []
        for frame in 0..<20 {
            var buffer = ScreenBuffer(size: size)
            for y in 0..<size.height {
                buffer.write(String(repeating: Character(UnicodeScalar(UInt8(65 + (y + frame) % 26))), count: size.width), x: 0, y: y, style: y % 2 == 0 ? .bold : .plain)
            }
            frames.append(buffer)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var bytes = 0
        for buffer in frames { bytes += renderer.render(buffer).count }
        let perFrame = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(frames.count) / 1_000_000
        print("TerminalUI: full 200x60 render+diff (every cell changed): \(perFrame) ms/frame, \(bytes / frames.count) bytes/frame (debug build)")
        #expect(perFrame < 500)
    }
}

@Suite struct KeyParserTests {
    func keys(_ text: String) -> [Key] {
        var parser = KeyParser()
        return parser.parse(Array(text.utf8)) + parser.flush()
    }

    @Test func everyKey() {
        #expect(keys("a你⭐️") == [.character("a"), .character("你"), .character("⭐️")])
        #expect(keys("\r") == [.enter])
        #expect(keys("\n") == [.enter])
        #expect(keys("\t") == [.tab])
        #expect(keys("\u{1B}[Z") == [.backTab])
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~") == [.home, .end, .home, .end])
        #expect(keys("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
        #expect(keys("\u{7F}\u{08}") == [.backspace, .backspace])
        #expect(keys("\u{1B}[3~") == [.delete])
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{03}") == [.control("c")])
        #expect(keys("\u{1B}[200~hello\nworld\u{1B}[201~") == [.paste("hello\nworld")])
    }

    @Test func sequencesSplitAcrossReads() {
        var parser = KeyParser()
        #expect(parser.parse([0x1B]) == [])
        #expect(parser.parse([0x5B]) == [])
        #expect(parser.parse([0x41]) == [.up])
        let star = Array("⭐".utf8)
        #expect(parser.parse(Array(star[0..<1])) == [])
        #expect(parser.parse(Array(star[1...])) == [], "held back: a variation selector may follow")
        #expect(parser.parse(Array("\u{1B}[20".utf8)) == [.character("⭐")])
        #expect(parser.parse(Array("0~pas".utf8)) == [])
        #expect(parser.parse(Array("te\u{1B}[2".utf8)) == [])
        #expect(parser.parse(Array("01~x".utf8)) == [.paste("paste")])
        #expect(parser.parse([0x1B]) == [.character("x")])
        #expect(parser.flush() == [.escape], "a lone Esc is resolved after a pause")
    }

    @Test func randomBytesNeverCrashOrHang() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var parser = KeyParser()
            var total = 0
            for _ in 0..<20 {
                let chunk = (0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                total += parser.parse(chunk).count
            }
            total += parser.finish().count
            #expect(!parser.hasPending)
            #expect(total >= 0)
        }
        // A long run of CSI parameters is dropped (up to its final byte), not waited on forever.
        var parser = KeyParser()
        _ = parser.parse(Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: "1"), count: 100))
        #expect(parser.parse(Array("~a".utf8)) + parser.flush() == [.character("a")])
    }
}
