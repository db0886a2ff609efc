/// A marble diagram: events laid out on a line of ticks.
///
/// The grammar, shared by the documentation and the test kit:
/// - `-` one tick with no event;
/// - a letter or digit: a value (its text is the character); `(text)`: a value with a longer text;
/// - `|` completed; `#` failed;
/// - `[ab]` several events at one tick, in order;
/// - `^` the subscription; `!` the disposal;
/// - spaces are ignored, so lines can be aligned.
///
/// Every element (`-`, a value, `|`, `#`, `^`, `!`, or a whole `[...]` group) takes one tick.
public struct MarbleDiagram: Equatable, Sendable, CustomStringConvertible {
    /// One thing that happens at a tick.
    public enum Mark: Equatable, Sendable {
        case value(String)
        case completed
        case failed
        case subscribed
        case disposed

        var text: String {
            switch self {
            case .value(let text): return text.count == 1 ? text : "(\(text))"
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
            if byTick[tick] == nil { order.append(tick) }
            byTick[tick, default: []].append(mark)
        }
        ticks = order.sorted().map { ($0, byTick[$0]!) }
        self.length = max(length ?? 0, (ticks.last?.tick ?? -1) + 1)
    }

    /// Parses a diagram; throws a ``MarbleSyntaxError`` that points at the offending character.
    ///
    /// With `checksGrammar` (the default) a diagram that breaks `value* (failed | completed)?`
    /// is an error too; turn it off for diagrams of materialized events, where `#` and `|` are
    /// values.
    public init(parsing text: String, checksGrammar: Bool = true) throws(MarbleSyntaxError) {
        var marks: [(tick: Int, mark: Mark)] = []
        var tick = 0
        var characters = Array(text)[...]
        var position = 0

        func fail(_ message: String) -> MarbleSyntaxError {
            MarbleSyntaxError(diagram: text, position: position, message: message)
        }

        func readValueText() throws(MarbleSyntaxError) -> String {
            // At "(": read up to the matching ")".
            characters.removeFirst()
            position += 1
            var value = ""
            while let next = characters.first, next != ")" {
                value.append(next)
                characters.removeFirst()
                position += 1
            }
            guard characters.first == ")" else { throw fail("unclosed '('") }
            guard !value.isEmpty else { throw fail("empty '()' value") }
            characters.removeFirst()
            position += 1
            return value
        }

        func readMark(inGroup: Bool) throws(MarbleSyntaxError) -> Mark? {
            guard let character = characters.first else { return nil }
            switch character {
            case "|": characters.removeFirst(); position += 1; return .completed
            case "#": characters.removeFirst(); position += 1; return .failed
            case "^": characters.removeFirst(); position += 1; return .subscribed
            case "!": characters.removeFirst(); position += 1; return .disposed
            case "(": return .value(try readValueText())
            default:
                if character.isLetter || character.isNumber {
                    characters.removeFirst()
                    position += 1
                    return .value(String(character))
                }
                throw fail(inGroup ? "'\(character)' is not allowed inside '[...]'" : "unexpected '\(character)'")
            }
        }

        while let character = characters.first {
            switch character {
            case " ", "\t":
                characters.removeFirst()
                position += 1
            case "-":
                characters.removeFirst()
                position += 1
                tick += 1
            case "[":
                characters.removeFirst()
                position += 1
                var group: [Mark] = []
                while let next = characters.first, next != "]" {
                    if next == " " { characters.removeFirst(); position += 1; continue }
                    if next == "[" || next == "-" { throw fail("'\(next)' is not allowed inside '[...]'") }
                    if let mark = try readMark(inGroup: true) { group.append(mark) }
                }
                guard characters.first == "]" else { throw fail("unclosed '['") }
                guard !group.isEmpty else { throw fail("empty '[]' group") }
                characters.removeFirst()
                position += 1
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

    /// The diagram in the canonical form: `-` for each empty tick, a group for several marks.
    public var description: String {
        var result = ""
        var next = 0
        for (tick, marks) in ticks {
            result += String(repeating: "-", count: tick - next)
            result += marks.count == 1 ? marks[0].text : "[" + marks.map(\.text).joined() + "]"
            next = tick + 1
        }
        result += String(repeating: "-", count: max(0, length - next))
        return result
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
