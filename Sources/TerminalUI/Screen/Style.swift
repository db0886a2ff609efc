/// A terminal colour: the 16 standard ones, or one of the 256 indexed.
public enum TerminalColor: Sendable, Hashable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// One of the 256-colour palette.
    case indexed(UInt8)

    var index: UInt8 {
        switch self {
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        case .brightBlack: return 8
        case .brightRed: return 9
        case .brightGreen: return 10
        case .brightYellow: return 11
        case .brightBlue: return 12
        case .brightMagenta: return 13
        case .brightCyan: return 14
        case .brightWhite: return 15
        case .indexed(let index): return index
        }
    }

    /// The SGR parameters that select this colour as foreground (or background).
    func parameters(background: Bool) -> [Int] {
        let value = Int(index)
        if case .indexed = self { return [background ? 48 : 38, 5, value] }
        if value < 8 { return [(background ? 40 : 30) + value] }
        return [(background ? 100 : 90) + value - 8]
    }
}

/// How a cell looks.
public struct Style: Sendable, Hashable {
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false
    public var foreground: TerminalColor?
    public var background: TerminalColor?

    public init(bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false,
                foreground: TerminalColor? = nil, background: TerminalColor? = nil) {
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
        self.foreground = foreground
        self.background = background
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let reverse = Style(reverse: true)
    public static let underline = Style(underline: true)

    /// The full SGR sequence that sets exactly this style (starting from a reset).
    var sgr: String {
        var parameters = [0]
        if bold { parameters.append(1) }
        if dim { parameters.append(2) }
        if underline { parameters.append(4) }
        if reverse { parameters.append(7) }
        if let foreground { parameters += foreground.parameters(background: false) }
        if let background { parameters += background.parameters(background: true) }
        return "\u{1B}[" + parameters.map(String.init).joined(separator: ";") + "m"
    }
}
