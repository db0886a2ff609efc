import Testing
@testable import TerminalUI

/// Label.wrap terminates on any text at any width, and never returns a line wider than the
/// width unless that line is a single character wider than the width itself.
@MainActor @Suite struct LabelWrapTests {
    /// A CJK character (2 columns) at width 1 used to loop forever: its prefix that fits was
    /// empty, so the word never got shorter.
    @Test func aCharacterWiderThanTheLineGetsALineOfItsOwn() {
        #expect(Label.wrap("商", width: 1) == ["商"])
        #expect(Label.wrap("a商b", width: 1) == ["a", "商", "b"])
        #expect(Label.wrap("商店 ok", width: 1) == ["商", "店", "o", "k"])
    }

    @Test func generatedTextAtEveryWidthTerminatesAndFits() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "bc", "商", "👩‍👩‍👧", "é", " ", "\n", "wide商店text", "x"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let width = Int.random(in: 1...8, using: &generator)
            for line in Label.wrap(text, width: width) {
                #expect(DisplayWidth.of(line) <= width || line.count == 1, "\(text.debugDescription) at \(width): \(line.debugDescription)")
            }
        }
    }
}
