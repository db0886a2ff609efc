/// A browser message's JSON object, read by hand: reading it is the first step of every
/// keystroke, and Foundation's `JSONDecoder` spent a tenth of the server's CPU there (a profile
/// of 1,000 tabs typing, issue 41).
///
/// It takes what `JSONDecoder` takes and gives the same values; `MessageObjectTests` checks that
/// against `JSONDecoder` on generated messages. A JSON text that is an object (after a byte-order
/// mark, if any), whose other keys' values are any JSON up to 512 levels deep (a comma after a
/// container's last value allowed, as `JSONDecoder` allows it). A key's first value counts; a
/// message key's value is read only when it is asked for, as `JSONDecoder` reads it: a string
/// with its escapes checked, a number that is an exact `Int` (`2`, `2.0`, `2e0`), or `null`.
/// Anything else is refused: `nil`.
struct MessageObject {
    /// The keys the messages use.
    static let keys: Set<String> = ["t", "s", "id", "v", "p", "n", "q", "f", "l", "d"]

    private var text: String
    /// Where each message key's (first) value is in the text's UTF-8.
    private let values: [String: Range<Int>]

    /// The object `text` holds, or `nil` when it is not one (not JSON, or not an object).
    init?(_ text: String) {
        self.text = text
        guard let values = self.text.withUTF8({ bytes in
            var reader = Reader(bytes)
            return reader.object()
        }) else { return nil }
        self.values = values
    }

    /// The string under `key`: `.some(nil)` when it is absent or `null`; `nil` when it is
    /// something else (a number, an array, a string with a broken escape).
    mutating func string(_ key: String) -> String?? {
        value(key) { reader in reader.string() }
    }

    /// The integer under `key`, in the same way: a number that is no exact `Int` is `nil`.
    mutating func integer(_ key: String) -> Int?? {
        value(key) { reader in reader.number() ?? nil }
    }

    /// The value under `key` as `read` reads it (`nil`: not of its kind), all of it.
    private mutating func value<T>(_ key: String, _ read: (inout Reader) -> T?) -> T?? {
        guard let range = values[key] else { return .some(nil) }
        return text.withUTF8 { bytes in
            var reader = Reader(UnsafeBufferPointer(rebasing: bytes[range]))
            if reader.literal("null") { return .some(nil) }
            guard let value = read(&reader), reader.isAtEnd else { return nil }
            return .some(value)
        }
    }
}

/// A reader of one JSON text, over its UTF-8 bytes (valid UTF-8: they come from a `String`).
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The deepest nesting `JSONDecoder` reads (the top-level object is the first level).
    static let maximumDepth = 512

    /// Where the top-level object's message keys' first values are, or `nil`.
    mutating func object() -> [String: Range<Int>]? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        skipSpace()
        guard peek == UInt8(ascii: "{") else { return nil }
        at += 1
        var values: [String: Range<Int>] = [:]
        while true {
            skipSpace()
            guard let next = peek else { return nil }
            if next == UInt8(ascii: "}") {
                at += 1
                break
            }
            guard let key = string() else { return nil }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { return nil }
            at += 1
            skipSpace()
            let start = at
            guard skipValue() else { return nil }
            if MessageObject.keys.contains(key), values[key] == nil { values[key] = start..<at }
            skipSpace()
            guard let after = peek else { return nil }
            at += 1
            if after == UInt8(ascii: "}") { break }
            guard after == UInt8(ascii: ",") else { return nil }
        }
        skipSpace()
        return at == bytes.count ? values : nil
    }

    private var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    /// Whether every byte has been read.
    var isAtEnd: Bool { at == bytes.count }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    /// Any value, its structure checked and its strings' contents not (`JSONDecoder` reads those
    /// only when asked); iteratively: a 64 KB message of `[` is 65,536 levels.
    private mutating func skipValue() -> Bool {
        var closers: [UInt8] = []
        var afterComma = false
        while true {
            // A value, or the end of a container after its last value's comma.
            skipSpace()
            switch peek {
            case UInt8(ascii: "\"")?:
                guard skipString() else { return false }
            case let byte? where byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")):
                // As JSONDecoder passes over a number: its characters, checked only when it is read.
                at += 1
                while let byte = peek, Self.isInANumber(byte) { at += 1 }
            case UInt8(ascii: "t")?:
                guard literal("true") else { return false }
            case UInt8(ascii: "f")?:
                guard literal("false") else { return false }
            case UInt8(ascii: "n")?:
                guard literal("null") else { return false }
            case let open? where open == UInt8(ascii: "[") || open == UInt8(ascii: "{"):
                guard closers.count + 2 <= Self.maximumDepth else { return false }
                at += 1
                skipSpace()
                let closer = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                if peek == closer {
                    at += 1
                } else {
                    closers.append(closer)
                    guard closer == UInt8(ascii: "]") || memberKey() else { return false }
                    continue
                }
            case let closer? where closer == closers.last && afterComma:
                // `[1,]`, `{"a":1,}`: taken, as JSONDecoder takes them.
                at += 1
                closers.removeLast()
            default:
                return false
            }
            // After a value: the end of its containers, or the next of their values.
            afterComma = false
            while true {
                guard let closer = closers.last else { return true }
                skipSpace()
                guard let next = peek else { return false }
                at += 1
                if next == closer {
                    closers.removeLast()
                    continue
                }
                guard next == UInt8(ascii: ",") else { return false }
                afterComma = true
                if closer == UInt8(ascii: "}") {
                    skipSpace()
                    if peek == closer { break }
                    guard memberKey() else { return false }
                    afterComma = false
                }
                break
            }
        }
    }

    /// An object member's key and its colon, before its value.
    private mutating func memberKey() -> Bool {
        skipSpace()
        guard skipString() else { return false }
        skipSpace()
        guard peek == UInt8(ascii: ":") else { return false }
        at += 1
        return true
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - at >= count else { return false }
        for index in 0..<count where bytes[at + index] != word.utf8Start[index] { return false }
        at += count
        return true
    }

    /// A number: its value when it is an exact `Int` (`.some(nil)` when it is a number but not
    /// one: digits past `Int`'s range, a fraction); `nil` when it is not a JSON number.
    mutating func number() -> Int?? {
        let start = at
        var digitsOnly = true
        if peek == UInt8(ascii: "-") { at += 1 }
        guard let first = peek, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else { return nil }
        at += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            digitsOnly = false
            at += 1
            guard skipDigits() else { return nil }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            digitsOnly = false
            at += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
            guard skipDigits() else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        if digitsOnly { return .some(Int(text)) }
        // `2.0`, `2e0`: read as a Double, which must be whole. From 2^53 up, where every Double is
        // whole, JSONDecoder reads such a number again as a Decimal and drops its fraction; here
        // it is no `Int` (no page writes one).
        guard let double = Double(text), double.magnitude < 0x1p53 else { return .some(nil) }
        return .some(Int(exactly: double))
    }

    /// Whether `byte` is one of a number's (digits, `.`, `e`, `E`, `+`, `-`).
    private static func isInANumber(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// Digits; whether there was one.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") { at += 1 }
        return at > start
    }

    /// A string passed over: up to its closing quote, a backslash taking the byte after it.
    private mutating func skipString() -> Bool {
        guard peek == UInt8(ascii: "\"") else { return false }
        at += 1
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\""):
                at += 1
                return true
            case UInt8(ascii: "\\"):
                // As JSONDecoder passes over an escape: the byte after the backslash; after `\u`,
                // four more, none of them a quote (their digits are checked only when read).
                guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "u") else {
                    at += 2
                    continue
                }
                guard bytes.count - at >= 6, !bytes[(at + 2)..<(at + 6)].contains(UInt8(ascii: "\"")) else { return false }
                at += 6
            default:
                at += 1
            }
        }
        return false
    }

    /// A string, its escapes read; `nil` when it is not a JSON string (a control character in
    /// it, an unknown escape, a lone surrogate, no end).
    mutating func string() -> String? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        at += 1
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            at += 1
        }
        // Escapes: the rest is decoded piece by piece.
        var scalars = String.UnicodeScalarView()
        var plain = start
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[plain..<at]), as: UTF8.self).unicodeScalars)
                at += 1
                if byte == UInt8(ascii: "\"") { return String(scalars) }
                guard let escaped = escape() else { return nil }
                scalars.append(escaped)
                plain = at
                continue
            }
            if byte < 0x20 { return nil }
            at += 1
        }
        return nil
    }

    /// The character an escape (after its backslash) stands for.
    private mutating func escape() -> Unicode.Scalar? {
        guard let kind = peek else { return nil }
        at += 1
        switch kind {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else { return nil }
                at += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            default:
                return Unicode.Scalar(unit)  // nil for a lone low surrogate
            }
        default:
            return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }
}
