/// A key press, or a paste.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    /// Typed text: one grapheme. It may be one a terminal cannot show on its own (a combining
    /// mark or a zero-width joiner in its own read, a C1 control); a ``TextField`` joins a mark
    /// to the character before it and drops controls.
    case character(Character)
    case enter
    case tab
    /// Shift-Tab.
    case backTab
    case up, down, left, right
    case home, end
    case pageUp, pageDown
    case backspace
    case delete
    case escape
    /// Control with a letter: `.control("c")` is Ctrl-C.
    case control(Character)
    /// Text pasted at once (bracketed paste), as it was pasted: it may hold newlines, tabs and
    /// other control characters.
    case paste(String)

    /// `'a'`, `Enter`, `Ctrl-C`, `paste("col1\tcol2")`: what a person would call the key, with
    /// invisible characters written as `\u{…}` escapes.
    public var description: String {
        switch self {
        case .character(let character): return "'\(Self.visible(String(character)))'"
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .escape: return "Esc"
        case .control(let letter): return "Ctrl-\(letter.uppercased())"
        case .paste(let text):
            let limit = 32
            guard text.count > limit else { return "paste(\"\(Self.visible(text))\")" }
            return "paste(\"\(Self.visible(text.prefix(limit)))…\", \(text.count) characters)"
        }
    }

    /// `text` with controls escaped (`\n`, `\t`, `\u{85}`), and with invisible graphemes that
    /// stand alone (a zero-width space, a combining mark with no base) escaped too.
    static func visible(_ text: some StringProtocol) -> String {
        var result = ""
        for character in text {
            let scalars = character.unicodeScalars
            let standsAlone = scalars.count == 1 && DisplayWidth.of(character) == 0
            for scalar in scalars {
                switch scalar {
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                default:
                    if standsAlone || scalar.properties.generalCategory == .control {
                        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                    } else {
                        result.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        return result
    }
}

/// Turns the bytes read from a terminal into keys, across reads: a sequence split between two
/// reads is completed by the second. A lone Esc stays pending until more bytes arrive or
/// `flush()` is called (the run loop calls it after a short pause).
///
/// Unknown escape sequences are skipped, invalid UTF-8 becomes U+FFFD, and nothing in the
/// input can make it crash or wait forever: overlong sequences are dropped.
public struct KeyParser: Sendable {
    private var pending: [UInt8] = []
    private var paste: [UInt8]?
    static let maximumSequence = 32

    public init() {}

    /// Whether bytes are waiting for the rest of a sequence.
    public var hasPending: Bool { !pending.isEmpty || paste != nil }

    /// Parses `bytes` (after whatever was pending) into keys.
    public mutating func parse(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        while !pending.isEmpty {
            if paste != nil {
                guard consumePaste(into: &keys) else { break }
                continue
            }
            guard let (key, length) = next() else { break }
            pending.removeFirst(length)
            guard let key else { continue }
            // A scalar that extends the previous grapheme (a variation selector, a combining
            // mark, a skin tone) joins it: one key per grapheme.
            if case .character(let character) = key, case .character(let previous)? = keys.last,
               (String(previous) + String(character)).count == 1 {
                keys[keys.count - 1] = .character(Character(String(previous) + String(character)))
                continue
            }
            keys.append(key)
        }
        return keys
    }

    /// Resolves whatever is pending: a lone Esc becomes `.escape`, an unfinished sequence is
    /// dropped, an unfinished paste is delivered as it is.
    public mutating func flush() -> [Key] {
        var keys: [Key] = []
        if let text = paste {
            keys.append(.paste(String(decoding: text + pending, as: UTF8.self)))
            paste = nil
            pending = []
            return keys
        }
        if pending.first == 0x1B {
            keys.append(.escape)
            pending.removeFirst()
        }
        keys += parse([])
        if !pending.isEmpty {
            // An incomplete UTF-8 sequence at the end: a replacement character.
            keys.append(.character("\u{FFFD}"))
            pending = []
        }
        return keys
    }

    /// The next key and how many bytes it took; `nil` if more bytes are needed. A `nil` key
    /// with a length means bytes were skipped.
    private mutating func next() -> (Key?, Int)? {
        let byte = pending[0]
        switch byte {
        case 0x1B:
            return escapeSequence()
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x09:
            return (.tab, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x00:
            return (nil, 1)
        case 0x01...0x1A:
            return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x1C...0x1F:
            return (nil, 1)
        default:
            return utf8Character()
        }
    }

    private mutating func escapeSequence() -> (Key?, Int)? {
        guard pending.count >= 2 else { return nil }
        let second = pending[1]
        if second == UInt8(ascii: "[") {
            var end = 2
            while end < pending.count, !(0x40...0x7E).contains(pending[end]) {
                end += 1
                if end > Self.maximumSequence { return (nil, end) }
            }
            guard end < pending.count else { return nil }
            let parameters = String(decoding: pending[2..<end], as: UTF8.self)
            let final = Character(Unicode.Scalar(pending[end]))
            let length = end + 1
            switch (parameters, final) {
            case ("", "A"), ("1;2", "A"): return (.up, length)
            case ("", "B"), ("1;2", "B"): return (.down, length)
            case ("", "C"), ("1;2", "C"): return (.right, length)
            case ("", "D"), ("1;2", "D"): return (.left, length)
            case ("", "H"), ("1", "~"), ("7", "~"): return (.home, length)
            case ("", "F"), ("4", "~"), ("8", "~"): return (.end, length)
            case ("5", "~"): return (.pageUp, length)
            case ("6", "~"): return (.pageDown, length)
            case ("3", "~"): return (.delete, length)
            case ("", "Z"): return (.backTab, length)
            case ("200", "~"):
                paste = []
                return (nil, length)
            default: return (nil, length)
            }
        }
        if second == UInt8(ascii: "O") {
            guard pending.count >= 3 else { return nil }
            switch pending[2] {
            case UInt8(ascii: "A"): return (.up, 3)
            case UInt8(ascii: "B"): return (.down, 3)
            case UInt8(ascii: "C"): return (.right, 3)
            case UInt8(ascii: "D"): return (.left, 3)
            case UInt8(ascii: "H"): return (.home, 3)
            case UInt8(ascii: "F"): return (.end, 3)
            default: return (nil, 3)
            }
        }
        if second == 0x1B {
            return (.escape, 1)
        }
        // Esc followed by something else: Esc, then that key.
        return (.escape, 1)
    }

    /// Collects pasted bytes until ESC [ 201 ~.
    private mutating func consumePaste(into keys: inout [Key]) -> Bool {
        let terminator: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        if let range = pending.firstRange(of: terminator) {
            let text = (paste ?? []) + pending[..<range.lowerBound]
            keys.append(.paste(String(decoding: text, as: UTF8.self)))
            pending.removeSubrange(..<range.upperBound)
            paste = nil
            return true
        }
        // Keep a possible partial terminator pending; move the rest into the paste.
        let keep = min(pending.count, terminator.count - 1)
        paste! += pending[..<(pending.count - keep)]
        pending.removeFirst(pending.count - keep)
        return false
    }

    private func utf8Character() -> (Key?, Int)? {
        let byte = pending[0]
        let length: Int
        switch byte {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.character("\u{FFFD}"), 1)
        }
        guard pending.count >= length else { return nil }
        for index in 1..<length where !(0x80...0xBF).contains(pending[index]) {
            return (.character("\u{FFFD}"), index)
        }
        let text = String(decoding: pending[0..<length], as: UTF8.self)
        guard let character = text.first else { return (nil, length) }
        return (.character(character), length)
    }
}
