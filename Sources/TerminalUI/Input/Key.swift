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
