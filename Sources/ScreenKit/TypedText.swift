/// What a text field keeps of what was typed or pasted into it, the same in every view layer (the
/// terminal's field, the browser's, and ``ScreenDriver/type(_:into:)`` in tests), so a paste
/// reaches the view model as the same text wherever the screen is drawn.
public enum TypedText {
    /// `text` with a Tab as a space, terminal escape sequences dropped whole, every other
    /// control character dropped, and the bidirectional embedding, override and isolate
    /// controls (U+202A–U+202E, U+2066–U+2069) dropped: one of those pasted into a title turns
    /// the rest of the line around wherever it is shown (a terminal, a page, a log), so that
    /// `evil‮txt.exe` reads as `evilexe.txt` ("Trojan Source"). The marks that only say a
    /// direction (U+200E, U+200F) and every letter of a right-to-left script are kept.
    ///
    /// Text copied from a terminal carries its colours: `ESC [ 3 1 m`. Dropping only the ESC
    /// would leave `[31m` in the field, so a control sequence (CSI: `ESC [` or U+009B, its
    /// parameter and intermediate bytes, and its final byte) and a control string (OSC `ESC ]`,
    /// DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _`, or their C1 forms, up to BEL or the
    /// string terminator `ESC \` / U+009C) go together. One that is cut short (no final byte, no
    /// terminator before the text ends) loses only its introducer: what follows is kept, so a
    /// paste never loses text to a stray ESC.
    public static func cleaned(_ text: String) -> String {
        cleaned(text, keepingLineBreaks: false)
    }

    /// `text` as a multi-line editor (``TextEditor``) keeps it: as ``cleaned(_:)``, but each line
    /// break (LF, CR LF, or a CR alone, as a paste from another system has them) is kept as one
    /// LF.
    public static func cleaned(_ text: String, keepingLineBreaks: Bool) -> String {
        // Typing is checked on every key (the browser's field sends its whole text): text with
        // no control character (C0, DEL or C1, the only ones an escape sequence starts with or
        // that get dropped) comes back as it is, without copying its scalars.
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || isBidiControl($0) }) else { return text }
        let scalars = Array(text.unicodeScalars)
        let lastTerminator = lastStringTerminator(in: scalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let end = escapeSequenceEnd(in: scalars, at: index, lastTerminator: lastTerminator) {
                index = end
                continue
            }
            if keepingLineBreaks, scalar == "\n" || scalar == "\r" {
                // CR LF is one break: its CR is dropped, its LF kept.
                if scalar == "\n" || index + 1 == scalars.count || scalars[index + 1] != "\n" { result.append("\n") }
            } else if scalar == "\t" {
                result.append(" ")
            } else if scalar.properties.generalCategory != .control && !isBidiControl(scalar) {
                result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }

    /// U+202A–U+202E (embeddings, overrides, their pop) and U+2066–U+2069 (isolates).
    /// The longest text a refusal quotes back whole ("“abc” is not a number"); a longer one is
    /// cut, with "…": a 10,000-character paste is not repeated under the field.
    public static let longestQuote = 24

    /// `text` in quotes, as a refusal repeats what a person entered: cleaned, and cut to
    /// ``longestQuote`` characters with "…".
    public static func quoted(_ text: String) -> String {
        let clean = cleaned(text)
        return "“" + (clean.count > longestQuote ? clean.prefix(longestQuote) + "…" : clean) + "”"
    }

    /// `text` without spaces (and line breaks) at either end: what a typed number, day or time
    /// is read from.
    static func trimmed(_ text: String) -> Substring {
        var text = Substring(text)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Where the last string terminator (BEL, U+009C, or the ESC of `ESC \\`) starts, or -1.
    static func lastStringTerminator(in scalars: [Unicode.Scalar]) -> Int {
        var index = scalars.count - 1
        while index >= 0 {
            switch scalars[index].value {
            case 0x07, 0x9C: return index
            case 0x1B where index + 1 < scalars.count && scalars[index + 1] == "\\": return index
            default: index -= 1
            }
        }
        return -1
    }

    /// Where the escape sequence starting at `start` ends (the index after it), or nil if no
    /// complete one starts there. A control string starting after `lastTerminator` cannot end,
    /// and is not scanned: a paste of many unterminated ones stays linear.
    static func escapeSequenceEnd(in scalars: [Unicode.Scalar], at start: Int, lastTerminator: Int) -> Int? {
        enum Kind { case controlSequence, controlString }
        var body = start + 1
        let kind: Kind
        switch scalars[start].value {
        case 0x1B:
            guard body < scalars.count else { return nil }
            switch scalars[body] {
            case "[": kind = .controlSequence
            case "]", "P", "X", "^", "_": kind = .controlString
            default: return nil
            }
            body += 1
        case 0x9B: kind = .controlSequence
        case 0x9D, 0x90, 0x98, 0x9E, 0x9F: kind = .controlString
        default: return nil
        }
        var index = body
        switch kind {
        case .controlSequence:
            // Parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
            while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            guard index < scalars.count, (0x40...0x7E).contains(scalars[index].value) else { return nil }
            return index + 1
        case .controlString:
            guard index <= lastTerminator else { return nil }
            while index < scalars.count {
                switch scalars[index].value {
                case 0x07, 0x9C: return index + 1
                case 0x1B where index + 1 < scalars.count && scalars[index + 1] == "\\": return index + 2
                default: index += 1
                }
            }
            return nil
        }
    }
}
