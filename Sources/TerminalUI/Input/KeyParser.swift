/// Turns the bytes read from a terminal into keys, across reads.
///
/// The keys do not depend on how the bytes were split into reads: parsing them whole, in any
/// chunks, or byte by byte gives the same keys. To keep that promise the parser holds back
///
/// - the last grapheme typed, until a byte arrives that cannot extend it (a combining mark,
///   a variation selector or a zero-width joiner in a later read still joins it);
/// - an unfinished UTF-8 sequence, escape sequence or bracketed paste, until the rest arrives;
/// - a lone Esc, which may be the start of a sequence.
///
/// Pauses and the end of input resolve what is held:
///
/// - `flush()` is a pause (the run loop calls it when no byte followed for a moment): it
///   delivers the held grapheme and turns a lone Esc into `.escape`. ESC `[` and ESC `O` wait
///   for the rest of their sequence (a slow link may split an arrow key), and so do an
///   unfinished UTF-8 sequence and a paste.
/// - `finish()` is the end of input: everything is resolved.
///
/// Nothing in the input makes it crash or wait without bound:
///
/// - invalid UTF-8 becomes U+FFFD (one for each maximal invalid subpart, as
///   `String(decoding:as:)` does), and the bytes after it are parsed as they are;
/// - an unknown, malformed or overlong (over 32 bytes) escape sequence is dropped, never
///   typed: a control or non-ASCII byte inside one ends it and is parsed itself;
/// - CR LF is one Enter; NUL and the controls without a letter (0x1C–0x1F) are dropped;
/// - a bracketed paste keeps its first `maximumPaste` bytes (cut at a whole character), drops
///   the rest, and still ends at its closing marker.
public struct KeyParser: Sendable {
    /// Where the parser is in the byte stream.
    private enum State: Sendable, Equatable {
        case ground
        /// Inside a UTF-8 sequence: `remaining` continuation bytes to come, the next in `next`.
        case utf8(value: UInt32, remaining: Int, next: ClosedRange<UInt8>)
        /// After ESC.
        case escape
        /// After ESC [: parameter and intermediate bytes are in `sequence`.
        case csi
        /// After ESC O.
        case ss3
        /// An overlong sequence: bytes are dropped up to its final byte.
        case discarding
        /// Inside a bracketed paste: `matched` bytes of the closing marker seen so far.
        case paste(matched: Int)
    }

    /// The longest escape sequence kept; a longer one is dropped.
    static let maximumSequence = 32
    /// The most bytes a paste keeps (1 MiB); the rest is dropped.
    public static let maximumPaste = 1 << 20
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private var state = State.ground
    /// The parameter bytes of the escape sequence being read.
    private var sequence: [UInt8] = []
    /// The bytes of the paste being read (at most `maximumPaste`).
    private var pasted: [UInt8] = []
    private var pasteWasCut = false
    /// The grapheme held back in case the next scalar extends it.
    private var held = ""
    /// Whether the last byte was CR, so that an LF right after it is not a second Enter.
    private var afterCR = false
    /// Keys completed by the bytes being parsed.
    private var output: [Key] = []

    public init() {}

    /// Whether anything is held back: a grapheme, a lone Esc, or an unfinished sequence or paste.
    public var hasPending: Bool { state != .ground || !held.isEmpty }

    /// Parses `bytes` (after whatever was held back) into the keys they complete.
    public mutating func parse(_ bytes: [UInt8]) -> [Key] {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if case .paste(matched: 0) = state {
                // The body of a paste, up to the next byte that could start its closing marker.
                let end = bytes[index...].firstIndex(of: 0x1B) ?? bytes.endIndex
                if end > index {
                    appendPasted(bytes[index..<end])
                    index = end
                    continue
                }
            }
            consume(bytes[index])
            index += 1
        }
        return takeOutput()
    }

    /// The input paused: delivers the held grapheme and turns a lone Esc into `.escape`.
    /// Unfinished sequences and pastes keep waiting for their rest.
    public mutating func flush() -> [Key] {
        release()
        if state == .escape {
            output.append(.escape)
            state = .ground
        }
        return takeOutput()
    }

    /// The input ended: resolves everything. An unfinished UTF-8 sequence becomes U+FFFD, a lone
    /// Esc `.escape`, an unfinished escape sequence is dropped, an unfinished paste delivered.
    public mutating func finish() -> [Key] {
        switch state {
        case .ground, .csi, .ss3, .discarding:
            break
        case .utf8:
            text("\u{FFFD}")
        case .escape:
            release()
            output.append(.escape)
        case .paste(let matched):
            appendPasted(Self.pasteEnd[..<matched])
            endPaste()
        }
        state = .ground
        sequence = []
        afterCR = false
        release()
        return takeOutput()
    }

    /// Delivers the held grapheme now (the run loop does at the end of each read, so typed
    /// text shows at once; a combining mark in a later read then comes as its own key, which
    /// a text field joins to the character before it).
    mutating func releaseText() -> [Key] {
        release()
        return takeOutput()
    }

    private mutating func takeOutput() -> [Key] {
        defer { output = [] }
        return output
    }

    // MARK: - The state machine

    private mutating func consume(_ byte: UInt8) {
        switch state {
        case .ground:
            ground(byte)
        case .utf8(let value, let remaining, let next):
            guard next.contains(byte) else {
                // A cut sequence: U+FFFD for what came, then this byte on its own.
                state = .ground
                text("\u{FFFD}")
                ground(byte)
                return
            }
            let value = value << 6 | UInt32(byte & 0x3F)
            if remaining == 1 {
                state = .ground
                text(Unicode.Scalar(value) ?? "\u{FFFD}")
            } else {
                state = .utf8(value: value, remaining: remaining - 1, next: 0x80...0xBF)
            }
        case .escape:
            switch byte {
            case UInt8(ascii: "["):
                state = .csi
                sequence = []
            case UInt8(ascii: "O"):
                state = .ss3
            default:
                // Esc and then a key (Alt-x), or Esc Esc.
                output.append(.escape)
                state = .ground
                ground(byte)
            }
        case .csi:
            switch byte {
            case 0x20...0x3F:
                // ESC [, the parameters with this byte, and room for the final byte.
                if 2 + sequence.count + 2 > Self.maximumSequence {
                    state = .discarding
                    sequence = []
                } else {
                    sequence.append(byte)
                }
            case 0x40...0x7E:
                state = .ground
                controlSequence(final: byte)
                sequence = []
            default:
                // Malformed: drop it, and read this byte on its own.
                state = .ground
                sequence = []
                ground(byte)
            }
        case .ss3:
            state = .ground
            switch byte {
            case UInt8(ascii: "A"): output.append(.up)
            case UInt8(ascii: "B"): output.append(.down)
            case UInt8(ascii: "C"): output.append(.right)
            case UInt8(ascii: "D"): output.append(.left)
            case UInt8(ascii: "H"): output.append(.home)
            case UInt8(ascii: "F"): output.append(.end)
            case 0x20...0x7E: break
            default: ground(byte)
            }
        case .discarding:
            switch byte {
            case 0x20...0x3F: break
            case 0x40...0x7E: state = .ground
            default:
                state = .ground
                ground(byte)
            }
        case .paste(let matched):
            if byte == Self.pasteEnd[matched] {
                if matched + 1 == Self.pasteEnd.count {
                    state = .ground
                    endPaste()
                } else {
                    state = .paste(matched: matched + 1)
                }
            } else {
                // Not the marker after all: what matched is pasted text. Only its first byte
                // is ESC, so a mismatch can only start a new match at ESC.
                appendPasted(Self.pasteEnd[..<matched])
                if byte == 0x1B {
                    state = .paste(matched: 1)
                } else {
                    appendPasted(CollectionOfOne(byte))
                    state = .paste(matched: 0)
                }
            }
        }
    }

    private mutating func ground(_ byte: UInt8) {
        let wasCR = afterCR
        afterCR = false
        switch byte {
        case 0x20...0x7E:
            text(Unicode.Scalar(byte))
        case 0x1B:
            release()
            state = .escape
        case 0x0D:
            release()
            output.append(.enter)
            afterCR = true
        case 0x0A:
            release()
            if !wasCR { output.append(.enter) }
        case 0x09:
            release()
            output.append(.tab)
        case 0x7F, 0x08:
            release()
            output.append(.backspace)
        case 0x00, 0x1C...0x1F:
            release()
        case 0x01...0x1A:
            release()
            output.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        case 0xC2...0xDF:
            state = .utf8(value: UInt32(byte & 0x1F), remaining: 1, next: 0x80...0xBF)
        case 0xE0...0xEF:
            let next: ClosedRange<UInt8> = byte == 0xE0 ? 0xA0...0xBF : byte == 0xED ? 0x80...0x9F : 0x80...0xBF
            state = .utf8(value: UInt32(byte & 0x0F), remaining: 2, next: next)
        case 0xF0...0xF4:
            let next: ClosedRange<UInt8> = byte == 0xF0 ? 0x90...0xBF : byte == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            state = .utf8(value: UInt32(byte & 0x07), remaining: 3, next: next)
        default:
            // 0x80–0xC1, 0xF5–0xFF never start a character.
            text("\u{FFFD}")
        }
    }

    /// A scalar of typed text: it extends the held grapheme or starts the next one.
    private mutating func text(_ scalar: Unicode.Scalar) {
        if held.isEmpty {
            held.unicodeScalars.append(scalar)
            return
        }
        // Two ASCII characters are always two graphemes (CR LF never gets here).
        if scalar.isASCII, held.utf8.count == 1 {
            release()
            held.unicodeScalars.append(scalar)
            return
        }
        var joined = held
        joined.unicodeScalars.append(scalar)
        if joined.count == 1 {
            held = joined
        } else {
            release()
            held.unicodeScalars.append(scalar)
        }
    }

    private mutating func release() {
        guard !held.isEmpty else { return }
        output.append(.character(Character(held)))
        held = ""
    }

    /// ESC [ `sequence` `final`.
    private mutating func controlSequence(final: UInt8) {
        release()
        let parameters = String(decoding: sequence, as: UTF8.self)
        switch (parameters, Character(Unicode.Scalar(final))) {
        case ("", "A"), ("1;2", "A"): output.append(.up)
        case ("", "B"), ("1;2", "B"): output.append(.down)
        case ("", "C"), ("1;2", "C"): output.append(.right)
        case ("", "D"), ("1;2", "D"): output.append(.left)
        case ("", "H"), ("1", "~"), ("7", "~"): output.append(.home)
        case ("", "F"), ("4", "~"), ("8", "~"): output.append(.end)
        case ("5", "~"): output.append(.pageUp)
        case ("6", "~"): output.append(.pageDown)
        case ("3", "~"): output.append(.delete)
        case ("", "Z"): output.append(.backTab)
        case ("200", "~"):
            state = .paste(matched: 0)
            pasted = []
            pasteWasCut = false
        default: break
        }
    }

    private mutating func appendPasted(_ bytes: some Collection<UInt8>) {
        let room = Self.maximumPaste - pasted.count
        if bytes.count > room {
            pasted += bytes.prefix(room)
            pasteWasCut = true
        } else {
            pasted += bytes
        }
    }

    private mutating func endPaste() {
        if pasteWasCut { Self.dropCutCharacter(from: &pasted) }
        output.append(.paste(String(decoding: pasted, as: UTF8.self)))
        pasted = []
        pasteWasCut = false
    }

    /// Removes a UTF-8 sequence cut short at the end of `bytes`.
    private static func dropCutCharacter(from bytes: inout [UInt8]) {
        var start = bytes.count
        while start > max(0, bytes.count - 4), start > 0, (0x80...0xBF).contains(bytes[start - 1]) { start -= 1 }
        guard start > 0 else { return }
        let lead = bytes[start - 1]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return
        }
        if bytes.count - (start - 1) < length { bytes.removeSubrange((start - 1)...) }
    }
}
