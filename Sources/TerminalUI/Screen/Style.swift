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
}

/// How a cell looks.
///
/// Stored as one packed word (four flags and two colour codes), so comparing two styles, which
/// the renderer does for every cell of every frame, is one integer comparison.
public struct Style: Sendable, Hashable {
    /// Bits 0–3: bold, dim, underline, reverse; bits 4–12: the foreground's code; bits 13–21:
    /// the background's (``TerminalColor/code``: 0 for none).
    private var bits: UInt32 = 0

    public var bold: Bool {
        get { flag(0) }
        set { setFlag(0, newValue) }
    }
    public var dim: Bool {
        get { flag(1) }
        set { setFlag(1, newValue) }
    }
    public var underline: Bool {
        get { flag(2) }
        set { setFlag(2, newValue) }
    }
    public var reverse: Bool {
        get { flag(3) }
        set { setFlag(3, newValue) }
    }
    public var foreground: TerminalColor? {
        get { TerminalColor(code: (bits >> 4) & 0x1FF) }
        set { bits = (bits & ~(0x1FF << 4)) | (TerminalColor.code(of: newValue) << 4) }
    }
    public var background: TerminalColor? {
        get { TerminalColor(code: (bits >> 13) & 0x1FF) }
        set { bits = (bits & ~(0x1FF << 13)) | (TerminalColor.code(of: newValue) << 13) }
    }

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

    private func flag(_ bit: UInt32) -> Bool { bits & (1 << bit) != 0 }

    private mutating func setFlag(_ bit: UInt32, _ on: Bool) {
        if on { bits |= 1 << bit } else { bits &= ~(1 << bit) }
    }


    /// Appends the SGR sequence that sets exactly this style (starting from a reset).
    func appendSGR(to bytes: inout [UInt8]) {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "["))
        bytes.append(UInt8(ascii: "0"))
        if bold { bytes.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "1")]) }
        if dim { bytes.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "2")]) }
        if underline { bytes.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "4")]) }
        if reverse { bytes.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "7")]) }
        if let foreground { foreground.appendParameters(background: false, to: &bytes) }
        if let background { background.appendParameters(background: true, to: &bytes) }
        bytes.append(UInt8(ascii: "m"))
    }
}

extension TerminalColor {
    /// 0 for none, 1–16 for the named colours, 17–272 for the indexed ones.
    static func code(of color: TerminalColor?) -> UInt32 {
        guard let color else { return 0 }
        if case .indexed(let index) = color { return 17 + UInt32(index) }
        return 1 + UInt32(color.index)
    }

    /// The 16 named colours, by index.
    private static let named: [TerminalColor] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]

    /// The named colour at `index` (clamped to 0–15).
    static func standard(_ index: Int) -> TerminalColor {
        named[max(0, min(15, index))]
    }

    /// Appends `;` and each of this colour's SGR parameters.
    func appendParameters(background: Bool, to bytes: inout [UInt8]) {
        let value = Int(index)
        if case .indexed = self {
            bytes.append(UInt8(ascii: ";"))
            bytes.appendDecimal(background ? 48 : 38)
            bytes.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "5"), UInt8(ascii: ";")])
            bytes.appendDecimal(value)
        } else {
            bytes.append(UInt8(ascii: ";"))
            bytes.appendDecimal(value < 8 ? (background ? 40 : 30) + value : (background ? 100 : 90) + value - 8)
        }
    }

    init?(code: UInt32) {
        switch code {
        case 0: return nil
        case 1...16: self = .standard(Int(code) - 1)
        default: self = .indexed(UInt8(truncatingIfNeeded: code - 17))
        }
    }
}

extension [UInt8] {
    /// Appends `value` (not negative) in decimal ASCII digits.
    mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
    }
}
