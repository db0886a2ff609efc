/// How many terminal columns text takes: CJK ideographs, Hangul, fullwidth forms and emoji take
/// two; combining marks, zero-width joiners and variation selectors take none.
public enum DisplayWidth {
    /// The columns one grapheme (a `Character`) takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return (0x20..<0x7F).contains(ascii) ? 1 : 0 }
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        if iterator.next() == nil {
            // One scalar: nothing below U+231A is presented as emoji by default.
            return first.value >= 0x231A && first.properties.isEmojiPresentation ? 2 : of(first)
        }
        // Emoji: presented as emoji by default, or asked to be with VS16 (U+FE0F).
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if scalars.count > 1 && scalars.contains(where: { $0.value == 0x200D }) && first.properties.isEmoji { return 2 }
        return of(first)
    }

    /// The columns one scalar takes on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        // Common one-column ranges, without a property lookup: Latin-1 and Latin Extended
        // (but the soft hyphen, a format character), box drawing and block elements.
        if (value < 0x300 && value != 0xAD) || (0x2500..<0x25A0).contains(value) { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || value == 0x200B || value == 0x200D { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// The columns a string takes. Printable ASCII not followed by a non-ASCII scalar (which
    /// could join it into a larger grapheme) counts one column a byte; the rest is measured a
    /// grapheme at a time.
    public static func of(_ text: some StringProtocol) -> Int {
        let utf8 = text.utf8
        var columns = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte >= 0x20, byte < 0x7F, next == utf8.endIndex || utf8[next] < 0x80 {
                columns += 1
                index = next
            } else {
                columns += of(text[index])
                index = text.index(after: index)
            }
        }
        return columns
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15), plus the emoji blocks.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
             0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
             0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
             0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
             0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The longest prefix of `text` that fits in `columns`, and its width.
    public static func prefix(of text: String, fitting columns: Int) -> (text: String, width: Int) {
        var result = ""
        var width = 0
        for character in text {
            let next = of(character)
            if width + next > columns { break }
            result.append(character)
            width += next
        }
        return (result, width)
    }

    /// `text` cut to `columns`, ending with "…" when it had to be cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        return prefix(of: text, fitting: columns - 1).text + "…"
    }
}
