import PropertyBased
import SignalsTesting
import Testing

/// T-G5, issue 15: a diagram printed by the test kit reads back as the same diagram, whatever text its
/// values have, so a recorded stream can never be mistaken for another one.
@Suite struct MarbleDiagramRoundTripTests {
    /// Values that print as grammar when printed bare: a stream sending the text `|` is not a
    /// completed stream.
    @Test func specialValuesReadBackAsValues() {
        for text in ["|", "#", "^", "!", "-", "[", "]", "(", ")", " ", "\\", "", "*", "a)b", "(x)", "\\)", "😀", "\u{301}"] {
            let diagram = MarbleDiagram(marks: [(1, .value(text)), (2, .completed)])
            let printed = diagram.description
            #expect((try? MarbleDiagram(parsing: printed)) == diagram, "the value \(text.debugDescription) prints as \(printed.debugDescription)")
        }
    }

    @Test func escapesInsideParenthesesAreRead() throws {
        let diagram = try MarbleDiagram(parsing: #"-(\))-(\\)-()-(|)-(a b)|"#)
        #expect(diagram.allMarks == [.value(")"), .value("\\"), .value(""), .value("|"), .value("a b"), .completed])
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: #"-(a\"#) }
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: #"-(a\)"#) }
    }

    @Test func lettersAndDigitsStillPrintBare() {
        let diagram = MarbleDiagram(marks: [(0, .value("a")), (1, .value("7")), (2, .value("é")), (3, .value("ab")), (4, .value("|")), (5, .completed)])
        #expect(diagram.description == "a7é(ab)(|)|")
    }

    /// Random diagrams, shrunk to the smallest one that fails: values made of the grammar's own
    /// characters, escapes, spaces, the empty text and Unicode that joins its neighbours, in
    /// simultaneous groups, beside `|`, `#`, `^` and `!`.
    @Test(.shrinking) func everyPrintedDiagramReadsBackAsItself() async {
        await propertyCheck(count: 5_000, input: Self.diagrams) { diagram in
            let printed = diagram.description
            let loose = try? MarbleDiagram(parsing: printed, checksGrammar: false)
            #expect(loose == diagram, "printed as \(printed.debugDescription)")
            switch Result(catching: { () throws(MarbleSyntaxError) in try MarbleDiagram(parsing: printed) }) {
            case .success(let strict):
                #expect(strict == diagram, "printed as \(printed.debugDescription)")
            case .failure(let error):
                // Only the event grammar may reject it (a value after `|`, two `^`), never the syntax.
                #expect(error.position == nil, "printed as \(printed.debugDescription): \(error)")
            }
        }
    }

    /// The text pieces a value is made of. Besides the grammar's characters: a combining accent
    /// (joins what is before it), a Hangul vowel (joins a Hangul syllable before it), a prepended
    /// letter (joins what comes after it), an emoji joiner, half a flag, CR and LF.
    static let pieces: [String] = [
        "a", "b", "Z", "7", "é", "e\u{301}", "ab", "-", "|", "#", "^", "!", "[", "]", "(", ")", "\\", " ", "\t", "",
        "*", "x)y", "(a)", "\\)", "\u{301}", "각", "\u{1161}", "\u{D4E}", "😀", "\u{200D}", "🇫", "\r", "\n",
    ]

    /// A mark: one code below 4 is `|`, `#`, `^` or `!`; otherwise a value joining the pieces.
    static let mark = Gen.int(in: 0...(pieces.count + 3)).array(of: 1...3)
    static let diagrams = mark.array(of: 0...3).array(of: 0...12).map(diagram(ticks:))

    @Sendable static func diagram(ticks: [[[Int]]]) -> MarbleDiagram {
        var marks: [(tick: Int, mark: MarbleDiagram.Mark)] = []
        for (tick, codes) in ticks.enumerated() {
            for code in codes { marks.append((tick, mark(code))) }
        }
        return MarbleDiagram(marks: marks, length: ticks.count)
    }

    static func mark(_ code: [Int]) -> MarbleDiagram.Mark {
        let structural: [MarbleDiagram.Mark] = [.completed, .failed, .subscribed, .disposed]
        if code.count == 1, code[0] < 4 { return structural[code[0]] }
        return .value(code.map { $0 < 4 ? ["|", "#", "^", "!"][$0] : pieces[$0 - 4] }.joined())
    }
}
