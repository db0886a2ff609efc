import Testing
@testable import TerminalUI

/// Issue 16: a text field takes any Unicode text without crashing, and what is typed is always
/// visible.
@MainActor @Suite struct TextFieldUnicodeTests {
    func paste(_ text: String) -> String { "\u{1B}[200~" + text + "\u{1B}[201~" }

    @Test func aPastedTabBecomesASpace() {
        let field = TextField()
        let harness = Harness(field)
        harness.type(paste("col1\tcol2"))
        #expect(field.text == "col1 col2")
        #expect(harness.line(0) == "col1 col2")
        #expect(field.cursor == 9)
    }

    @Test func otherControlsInAPasteAreDropped() {
        let field = TextField()
        let harness = Harness(field)
        harness.type(paste("a\u{7}b\r\nc\u{1B}d\u{0}e\u{85}f\u{7F}g"))
        #expect(field.text == "abcdefg")
        #expect(harness.line(0) == "abcdefg")
    }

    @Test func aPastedColourSequenceIsDroppedWhole() {
        let field = TextField()
        let harness = Harness(field)
        harness.type(paste("mi\u{1B}[31mlk\u{1B}[0m \u{1B}[38;5;196mred\u{1B}[m"))
        #expect(field.text == "milk red", "no `[31m` left behind by the dropped ESC")
        #expect(harness.line(0) == "milk red")
    }

    @Test func hyperlinksTitlesAndC1SequencesInAPasteAreDroppedWhole() {
        #expect(TextField.sanitized("a\u{1B}]8;;https://x.example\u{1B}\\link\u{1B}]8;;\u{1B}\\b") == "alinkb")
        #expect(TextField.sanitized("t\u{1B}]0;title\u{7}u") == "tu")
        #expect(TextField.sanitized("a\u{9B}1mb\u{9D}0;x\u{9C}c") == "abc")
        #expect(TextField.sanitized("d\u{1B}P1$r\u{1B}\\e\u{1B}_app\u{7}f") == "def")
    }

    @Test func aSequenceCutShortLosesOnlyItsIntroducer() {
        #expect(TextField.sanitized("a\u{1B}[12") == "a[12")
        #expect(TextField.sanitized("a\u{1B}]0;never ends") == "a]0;never ends")
        #expect(TextField.sanitized("a\u{1B}[1\u{1}m") == "a[1m", "a control inside is not a final byte")
        #expect(TextField.sanitized("a\u{1B}") == "a")
    }

    /// A hostile paste: 30,000 control strings that never end. Each loses only its ESC, and
    /// the paste is taken in linear time (scanning each one to the end of the paste, as the
    /// first version did, took 2.2 s for 40,000 in a release build and grew with the square).
    @Test func aPasteOfManyUnterminatedStringsIsTakenInLinearTime() {
        let pasted = String(repeating: "\u{1B}]x", count: 30_000)
        let clock = ContinuousClock()
        let started = clock.now
        let clean = TextField.sanitized(pasted)
        let took = clock.now - started
        #expect(clean == String(repeating: "]x", count: 30_000))
        #expect(took < .seconds(5), "took \(took)")
    }

    /// Generated: text pieces (ASCII, accents, emoji, Hebrew, brackets and digits that look like
    /// sequence bytes) with random well-formed sequences between them come out as the pieces.
    @Test func generatedPastesKeepTheTextBetweenSequences() {
        let pieces = ["milk", "[31m", "é", "👩‍👩‍👧", "שלום", "0;1", "~", " ", "m", "\\", "]"]
        let introducers = ["\u{1B}[", "\u{9B}"]
        let strings = ["\u{1B}]", "\u{1B}P", "\u{1B}_", "\u{9D}"]
        let terminators = ["\u{7}", "\u{1B}\\", "\u{9C}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var pasted = "", expected = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let piece = pieces.randomElement(using: &generator)!
                pasted += piece
                expected += piece
                switch Int.random(in: 0...2, using: &generator) {
                case 0:
                    let parameters = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                        String(UnicodeScalar(UInt8.random(in: 0x30...0x3F, using: &generator)))
                    }.joined()
                    let intermediate = Bool.random(using: &generator) ? " " : ""
                    let final = String(UnicodeScalar(UInt8.random(in: 0x40...0x7E, using: &generator)))
                    pasted += introducers.randomElement(using: &generator)! + parameters + intermediate + final
                case 1:
                    pasted += strings.randomElement(using: &generator)! + "0;title [x] é"
                        + terminators.randomElement(using: &generator)!
                default:
                    break
                }
            }
            #expect(TextField.sanitized(pasted) == expected, "\(Key.visible(pasted))")
        }
    }

    @Test func aZeroWidthSpaceIsKeptAndDrawsNothing() {
        let field = TextField()
        let harness = Harness(field)
        harness.type(paste("a\u{200B}b"))
        #expect(field.text == "a\u{200B}b")
        #expect(field.cursor == 3)
        #expect(harness.line(0) == "ab")
        harness.type("\u{200B}")
        harness.press(.left, .backspace)
        #expect(field.text == "a\u{200B}\u{200B}")
        #expect(harness.line(0) == "a")
    }

    @Test func aCombiningMarkInItsOwnKeyJoinsTheCharacterBeforeIt() {
        let field = TextField()
        let harness = Harness(field)
        harness.type("e")
        harness.type("\u{301}")
        #expect(field.text == "e\u{301}")
        #expect(field.cursor == 1, "the cursor moves by grapheme")
        harness.type("x")
        #expect(field.text == "e\u{301}x")
        #expect(field.cursor == 2)
        #expect(harness.line(0) == "e\u{301}x")
        harness.press(.left, .left, .character("\u{308}"))
        #expect(field.text == "\u{308}e\u{301}x", "at the start there is no base to join")
        harness.press(.end, .backspace, .backspace)
        #expect(field.text == "\u{308}")
        #expect(field.cursor == 1)
        #expect(harness.line(0) == "")
    }

    @Test func aZWJEmojiTypedPieceByPieceIsOneCharacter() {
        let field = TextField()
        let harness = Harness(field)
        for piece in ["👨", "\u{200D}", "👩", "\u{200D}", "👧"] { harness.type(piece) }
        #expect(field.text == "👨\u{200D}👩\u{200D}👧")
        #expect(field.cursor == 1)
        #expect(harness.line(0) == "👨\u{200D}👩\u{200D}👧")
        harness.press(.backspace)
        #expect(field.text.isEmpty)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let field = TextField()
        let harness = Harness(field)
        harness.app.receive([0x61, 0xFF, 0x62, 0xE2, 0x82, 0x63, 0xC0, 0xAF])
        harness.app.drawNow()
        #expect(field.text == "a\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}")
        #expect(harness.line(0) == "a\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}")
    }

    @Test func textSetByCodeWithControlsDrawsWithoutThem() {
        let field = TextField(text: "a\tb\u{1B}[31mc")
        let harness = Harness(field)
        #expect(harness.line(0) == "ab[31mc", "a control is not sent to the terminal")
        #expect(harness.terminal.style(x: 3, y: 0).foreground == nil)
    }
}

/// Issue 16: the scroll offset follows the cursor in every edit.
@MainActor @Suite struct TextFieldScrollTests {
    let long = String(repeating: "0123456789", count: 6)

    @Test func textTypedAfterClearingALongTextWithCtrlUIsVisible() {
        let field = TextField()
        let harness = Harness(field, size: Size(width: 20, height: 5))
        harness.type(long)
        #expect(harness.line(0) == "1234567890123456789")
        harness.press(.control("u"))
        harness.type("abc")
        #expect(field.text == "abc")
        #expect(harness.line(0) == "abc")
        #expect(harness.terminal.cursor == Point(x: 3, y: 0))
    }

    @Test func textTypedAfterBackspacingALongTextIsVisible() {
        let field = TextField()
        let harness = Harness(field, size: Size(width: 20, height: 5))
        harness.type(long)
        for _ in 0..<long.count { harness.press(.backspace) }
        harness.type("xyz")
        #expect(harness.line(0) == "xyz")
        #expect(harness.terminal.cursor == Point(x: 3, y: 0))
    }

    @Test func deletingAtTheEndBringsTheEarlierTextBackIntoView() {
        let field = TextField()
        let harness = Harness(field, size: Size(width: 20, height: 5))
        harness.type(long)
        for _ in 0..<45 { harness.press(.backspace) }
        #expect(field.text == "012345678901234")
        #expect(harness.line(0) == "012345678901234", "the whole text fits again")
    }

    @Test func textSetByCodeIsShownFromWhereTheCursorIs() {
        let field = TextField()
        let harness = Harness(field, size: Size(width: 20, height: 5))
        harness.type(long)
        field.text = "short"
        harness.app.drawNow()
        #expect(harness.line(0) == "short")
        #expect(harness.terminal.cursor == Point(x: 5, y: 0))
    }

    @Test func homeAndEndScrollBothWays() {
        let field = TextField()
        let harness = Harness(field, size: Size(width: 20, height: 5))
        harness.type(long)
        harness.press(.home)
        #expect(harness.line(0) == "01234567890123456789")
        #expect(harness.terminal.cursor == Point(x: 0, y: 0))
        harness.press(.end)
        #expect(harness.line(0) == "1234567890123456789")
        #expect(harness.terminal.cursor == Point(x: 19, y: 0))
    }
}
