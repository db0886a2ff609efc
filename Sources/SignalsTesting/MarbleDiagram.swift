/// A marble diagram: events laid out on a line of ticks.
///
/// The grammar, shared by the documentation and the test kit:
/// - `-` one tick with no event;
/// - a letter or digit: a value (its text is the character);
/// - `(text)`: a value with any other text: longer (`(abc)`), empty (`()`), or a character the
///   grammar uses (`(|)`, `(-)`, `( )`); inside the parentheses `\` takes the next character
///   as it is, so `(\))` is the text `)` and `(\\)` the text `\`;
/// - `|` completed; `#` failed;
/// - `[ab]` several events at one tick, in order;
/// - `^` the subscription; `!` the disposal;
/// - spaces are ignored, so lines can be aligned.
///
/// Every element (`-`, a value, `|`, `#`, `^`, `!`, or a whole `[...]` group) takes one tick.
///
/// ``description`` prints a value bare only when it is one letter or digit, and in parentheses
/// otherwise, escaping `)` and `\`, so a printed diagram always parses back to the same
/// diagram: a stream that sends the text `|` prints as `(|)`, never as a completion.
public struct MarbleDiagram: Equatable, Sendable, CustomStringConvertible {
    /// One thing that happens at a tick.
    public enum Mark: Equatable, Sendable {
        case value(String)
        case completed
        case failed
        case subscribed
        case disposed

        /// The mark as the grammar writes it, on its own.
        var text: String { text(before: "") }

        /// The mark as the grammar writes it when `next` follows it (a letter printed bare must
        /// not merge with what follows into one character).
        func text(before next: String) -> String {
            switch self {
            case .value(let text):
                return MarbleDiagram.printsBare(text, before: next) ? text : MarbleDiagram.quoted(text)
            case .completed: return "|"
            case .failed: return "#"
            case .subscribed: return "^"
            case .disposed: return "!"
            }
        }
    }

    /// The marks at each tick that has any, in tick order.
    public private(set) var ticks: [(tick: Int, marks: [Mark])]
    /// How many ticks the diagram spans (its length in elements).
    public private(set) var length: Int

    public static func == (lhs: MarbleDiagram, rhs: MarbleDiagram) -> Bool {
        lhs.length == rhs.length && lhs.ticks.elementsEqual(rhs.ticks) { $0.tick == $1.tick && $0.marks == $1.marks }
    }

    /// Builds a diagram from marks at ticks (several marks at one tick keep their order).
    public init(marks: [(tick: Int, mark: Mark)], length: Int? = nil) {
        var byTick: [Int: [Mark]] = [:]
        var order: [Int] = []
        for (tick, mark) in marks {
            precondition(tick >= 0, "MarbleDiagram: tick \(tick) is before the diagram's start")
            if byTick[tick] == nil { order.append(tick) }
            byTick[tick, default: []].append(mark)
        }
        ticks = order.sorted().map { ($0, byTick[$0]!) }
        self.length = max(length ?? 0, (ticks.last?.tick ?? -1) + 1)
    }

    /// Parses a diagram; throws a ``MarbleSyntaxError`` that points at the offending character.
    ///
    /// With `checksGrammar` (the default) a diagram that breaks `value* (failed | completed)?`
    /// is an error too; turn it off for a diagram that is not one stream's events. (Materialized
    /// events need no exception: as values they are written `(#)` and `(|)`.)
    public init(parsing text: String, checksGrammar: Bool = true) throws(MarbleSyntaxError) {
        // Read by Unicode scalars, not characters: a value's text may begin with a combining
        // mark, which as a character would fuse with the `(` before it.
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        var marks: [(tick: Int, mark: Mark)] = []
        var tick = 0

        func fail(_ message: String) -> MarbleSyntaxError {
            MarbleSyntaxError(diagram: text, position: String(scalars[..<index]).count, message: message)
        }

        func advance() { index = scalars.index(after: index) }

        func readValueText() throws(MarbleSyntaxError) -> String {
            // At "(": read up to the matching ")"; "\" takes the next scalar as it is.
            advance()
            var value = String.UnicodeScalarView()
            while true {
                guard index < scalars.endIndex else { throw fail("unclosed '('") }
                let scalar = scalars[index]
                if scalar == ")" { break }
                if scalar == "\\" {
                    advance()
                    guard index < scalars.endIndex else { throw fail("'\\' at the end: unclosed '('") }
                }
                value.append(scalars[index])
                advance()
            }
            advance()
            return String(value)
        }

        func readMark(inGroup: Bool) throws(MarbleSyntaxError) -> Mark? {
            guard index < scalars.endIndex else { return nil }
            switch scalars[index] {
            case "|": advance(); return .completed
            case "#": advance(); return .failed
            case "^": advance(); return .subscribed
            case "!": advance(); return .disposed
            case "(": return .value(try readValueText())
            default:
                // A bare value is the whole character starting here.
                let character = Substring(scalars[index...]).first!
                if character.isLetter || character.isNumber {
                    index = scalars.index(index, offsetBy: character.unicodeScalars.count)
                    return .value(String(character))
                }
                throw fail(inGroup ? "'\(character)' is not allowed inside '[...]'" : "unexpected '\(character)'")
            }
        }

        while index < scalars.endIndex {
            switch scalars[index] {
            case " ", "\t":
                advance()
            case "-":
                advance()
                tick += 1
            case "[":
                advance()
                var group: [Mark] = []
                while index < scalars.endIndex, scalars[index] != "]" {
                    let next = scalars[index]
                    if next == " " { advance(); continue }
                    if next == "[" || next == "-" { throw fail("'\(next)' is not allowed inside '[...]'") }
                    if let mark = try readMark(inGroup: true) { group.append(mark) }
                }
                guard index < scalars.endIndex else { throw fail("unclosed '['") }
                guard !group.isEmpty else { throw fail("empty '[]' group") }
                advance()
                for mark in group { marks.append((tick, mark)) }
                tick += 1
            default:
                if let mark = try readMark(inGroup: false) {
                    marks.append((tick, mark))
                    tick += 1
                }
            }
        }
        self.init(marks: marks, length: tick)
        if checksGrammar { try validate(text: text) }
    }

    /// Whether `text` can be printed without parentheses when `next` follows it: it is one
    /// letter or digit, and the parser, reading the character that starts there, reads exactly
    /// it (some letters join the character after them: a Hangul syllable and a vowel, a
    /// prepended letter and anything).
    static func printsBare(_ text: String, before next: String) -> Bool {
        guard let first = (text + next).first, first.isLetter || first.isNumber else { return false }
        return first.unicodeScalars.count == text.unicodeScalars.count
    }

    /// `text` in parentheses, with `)` and `\` escaped.
    static func quoted(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        result.append("(")
        for scalar in text.unicodeScalars {
            if scalar == ")" || scalar == "\\" { result.append("\\") }
            result.append(scalar)
        }
        result.append(")")
        return String(result)
    }

    private func validate(text: String) throws(MarbleSyntaxError) {
        var terminalSeen = false
        for (_, marks) in ticks {
            for mark in marks {
                switch mark {
                case .value where terminalSeen:
                    throw MarbleSyntaxError(diagram: text, position: nil, message: "a value after '|' or '#' breaks the grammar value* (failed | completed)?")
                case .completed, .failed:
                    if terminalSeen { throw MarbleSyntaxError(diagram: text, position: nil, message: "more than one terminal event") }
                    terminalSeen = true
                default:
                    break
                }
            }
        }
        if allMarks.filter({ $0 == .subscribed }).count > 1 {
            throw MarbleSyntaxError(diagram: text, position: nil, message: "more than one '^'")
        }
    }

    /// Every mark in order, with its tick.
    public var allMarks: [Mark] { ticks.flatMap(\.marks) }

    /// The tick of the first `^`, if any.
    public var subscriptionTick: Int? { ticks.first { $0.marks.contains(.subscribed) }?.tick }

    /// The tick of the first `!`, if any.
    public var disposalTick: Int? { ticks.first { $0.marks.contains(.disposed) }?.tick }

    /// The diagram in the canonical form: `-` for each empty tick, a group for several marks,
    /// values bare only where that reads back the same. `MarbleDiagram(parsing: d.description)`
    /// is `d` for every diagram `d` (with `checksGrammar: false` if `d` breaks the grammar).
    public var description: String {
        // The elements in order: `-`, `[`, `]` and marks.
        enum Element {
            case syntax(String)
            case mark(Mark)
        }
        var elements: [Element] = []
        var next = 0
        for (tick, marks) in ticks {
            if tick > next { elements.append(.syntax(String(repeating: "-", count: tick - next))) }
            if marks.count == 1 {
                elements.append(.mark(marks[0]))
            } else {
                elements.append(.syntax("["))
                elements += marks.map(Element.mark)
                elements.append(.syntax("]"))
            }
            next = tick + 1
        }
        if length > next { elements.append(.syntax(String(repeating: "-", count: length - next))) }
        // From the end, so that each mark knows the text that follows it.
        var pieces: [String] = []
        var following = ""
        for element in elements.reversed() {
            switch element {
            case .syntax(let text): following = text
            case .mark(let mark): following = mark.text(before: following)
            }
            pieces.append(following)
        }
        return pieces.reversed().joined()
    }
}

/// A marble diagram that does not follow the grammar.
public struct MarbleSyntaxError: Error, Equatable, CustomStringConvertible {
    public let diagram: String
    /// The character offset of the problem, if it is at one place.
    public let position: Int?
    public let message: String

    public var description: String {
        if let position { return "marble diagram \"\(diagram)\", at offset \(position): \(message)" }
        return "marble diagram \"\(diagram)\": \(message)"
    }
}

extension MarbleDiagram {
    /// Parses a diagram written in a test; a syntax error stops the test run with its message,
    /// like any other programmer error.
    static func parseOrDie(_ text: String) -> MarbleDiagram {
        do {
            return try MarbleDiagram(parsing: text)
        } catch {
            preconditionFailure(error.description)
        }
    }
}
