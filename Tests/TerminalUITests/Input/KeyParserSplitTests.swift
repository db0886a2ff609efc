import Testing
@testable import TerminalUI

/// Issue 16: the keys do not depend on how the bytes were split across reads, and a pause (the
/// run loop's `flush()`) resolves only a lone Esc and held-back text.
@Suite struct KeyParserSplitTests {
    /// The keys of `bytes` parsed whole, then after a pause.
    func keys(_ bytes: [UInt8]) -> [Key] {
        var parser = KeyParser()
        return parser.parse(bytes) + parser.flush()
    }

    func keys(_ text: String) -> [Key] { keys(Array(text.utf8)) }

    @Test func anArrowKeySplitByAPauseIsStillAnArrow() {
        var parser = KeyParser()
        #expect(parser.parse([0x1B, 0x5B]) == [])
        #expect(parser.flush() == [], "ESC [ waits for the rest of the sequence")
        #expect(parser.hasPending)
        #expect(parser.parse([0x41]) == [.up])
        #expect(!parser.hasPending)
        #expect(parser.parse([0x1B, 0x4F]) == [])
        #expect(parser.flush() == [], "ESC O waits too")
        #expect(parser.parse([0x43]) == [.right])
    }

    @Test func aLoneEscIsResolvedByAPause() {
        var parser = KeyParser()
        #expect(parser.parse([0x1B]) == [])
        #expect(parser.flush() == [.escape])
        #expect(!parser.hasPending)
        #expect(keys("\u{1B}x") == [.escape, .character("x")], "Alt-x: Esc, then x")
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
    }

    @Test func anOverlongOrMalformedSequenceIsDroppedNotTyped() {
        let long = "\u{1B}[" + String(repeating: "1", count: 40) + "~"
        #expect(keys(long) == [])
        #expect(keys(long + "a") == [.character("a")])
        var parser = KeyParser()
        var typed: [Key] = []
        for byte in Array(long.utf8) { typed += parser.parse([byte]) }
        #expect(typed + parser.flush() == [], "byte by byte too")
        #expect(keys("\u{1B}[12;99q") == [], "an unknown sequence")
        #expect(keys("\u{1B}[1\u{1B}[B") == [.down], "a sequence cut by another")
        #expect(keys("\u{1B}[12\r") == [.enter], "a sequence cut by a control")
    }

    @Test func anInvalidLeadByteKeepsTheASCIIAfterIt() {
        #expect(keys([0xE2, 0x61]) == [.character("\u{FFFD}"), .character("a")])
        #expect(keys([0xF0, 0x9F, 0x61, 0x62]) == [.character("\u{FFFD}"), .character("a"), .character("b")])
        #expect(keys([0xFF, 0x61]) == [.character("\u{FFFD}"), .character("a")])
        #expect(keys([0xC0, 0xAF, 0x61]) == [.character("\u{FFFD}"), .character("\u{FFFD}"), .character("a")])
        #expect(keys([0xED, 0xA0, 0x80]) == Array(String(decoding: [0xED, 0xA0, 0x80] as [UInt8], as: UTF8.self)).map(Key.character), "a surrogate")
    }

    @Test func crLFIsOneEnter() {
        #expect(keys("\r\n") == [.enter])
        #expect(keys("a\r\nb\r\n") == [.character("a"), .enter, .character("b"), .enter])
        #expect(keys("\r\r") == [.enter, .enter])
        #expect(keys("\n\n") == [.enter, .enter])
        var parser = KeyParser()
        #expect(parser.parse([0x0D]) + parser.flush() + parser.parse([0x0A]) == [.enter])
    }

    @Test func aCombiningMarkInALaterReadJoinsItsBase() {
        var parser = KeyParser()
        #expect(parser.parse(Array("e".utf8)) + parser.parse(Array("\u{301}".utf8)) + parser.flush() == [.character("e\u{301}")])
        #expect(parser.parse(Array("⭐".utf8)) + parser.parse(Array("\u{FE0F}x".utf8)) + parser.flush() == [.character("⭐️"), .character("x")])
        let family = "👨\u{200D}👩\u{200D}👧"
        var pieces: [Key] = []
        for scalar in family.unicodeScalars { pieces += parser.parse(Array(String(scalar).utf8)) }
        #expect(pieces + parser.flush() == [.character(Character(family))])
    }

    @Test func aPasteSplitByAPauseEndsAtItsMarker() {
        var parser = KeyParser()
        #expect(parser.parse(Array("\u{1B}[200~col1\tco".utf8)) == [])
        #expect(parser.flush() == [], "a paste is not cut by a pause")
        #expect(parser.parse(Array("l2\u{1B}[20".utf8)) == [])
        #expect(parser.flush() == [])
        #expect(parser.parse(Array("1~x".utf8)) + parser.flush() == [.paste("col1\tcol2"), .character("x")])
    }

    @Test func aPasteIsCappedAndStillEndsAtItsMarker() {
        let cap = KeyParser.maximumPaste
        let body = [UInt8](repeating: UInt8(ascii: "p"), count: cap + 5_000)
        var parser = KeyParser()
        var keys = parser.parse(Array("\u{1B}[200~".utf8))
        for start in stride(from: 0, to: body.count, by: 4_096) {
            keys += parser.parse(Array(body[start..<min(body.count, start + 4_096)]))
        }
        keys += parser.parse(Array("\u{1B}[201~ok".utf8)) + parser.flush()
        #expect(keys.count == 3)
        guard keys.count == 3, case .paste(let text) = keys[0] else { return }
        #expect(text.utf8.count == cap)
        #expect(Array(keys[1...]) == [.character("o"), .character("k")], "the keys after the paste are typed")
    }

    @Test func aCappedPasteDoesNotEndInHalfACharacter() {
        let cap = KeyParser.maximumPaste
        // "é" is two bytes: after one "x", the cap falls in the middle of one.
        let body = Array(("x" + String(repeating: "é", count: cap / 2)).utf8)
        var parser = KeyParser()
        let keys = parser.parse(Array("\u{1B}[200~".utf8) + body + Array("\u{1B}[201~".utf8))
        guard case .paste(let text)? = keys.first else {
            Issue.record("no paste: \(keys.count) keys")
            return
        }
        #expect(!text.contains("\u{FFFD}"))
        #expect(text.utf8.count <= cap)
    }

    /// Inputs that used to come out differently depending on where the reads were split.
    static let corpus: [[UInt8]] = [
        Array("\u{1B}[A".utf8),
        Array("\u{1B}OA\u{1B}[1;2C".utf8),
        Array("\u{1B}[200~a\tb\r\nc\u{1B}d\u{1B}[201~".utf8),
        Array(("\u{1B}[" + String(repeating: "9", count: 50) + "~z").utf8),
        Array("e\u{301}\u{308}x".utf8),
        Array("🇺🇸🇫🇷".utf8),
        Array("👩\u{200D}💻!".utf8),
        Array("\r\n\r\n".utf8),
        [0xE2, 0x61, 0xF0, 0x9F, 0x98, 0x62, 0xC3],
        [0x1B],
        [0x1B, 0x5B, 0x32, 0x30],
    ]

    @Test(arguments: corpus)
    func theSameKeysWholeInChunksAndByteByByte(_ bytes: [UInt8]) {
        var whole = KeyParser()
        let expected = whole.parse(bytes) + whole.flush()
        for chunk in 1...max(1, bytes.count) {
            var parser = KeyParser()
            var keys: [Key] = []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                keys += parser.parse(Array(bytes[start..<min(bytes.count, start + chunk)]))
            }
            keys += parser.flush()
            #expect(keys == expected, "in chunks of \(chunk)")
            #expect(parser.hasPending == whole.hasPending)
        }
    }
}
