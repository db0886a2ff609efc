/// A page's address: its path and query, as the browser's location bar shows them (`/flickr?q=sunset`).
///
/// Screens have addresses so that a reload, a bookmark or a link opens the same screen: the
/// server opens a session at the address the browser asked for, and a session's content says the
/// address of each screen it shows (``Document/locations``).
public struct WebLocation: Sendable, Hashable, CustomStringConvertible {
    /// One `name=value` of the query, decoded.
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The path, decoded; always starts with `/`.
    public var path: String
    /// The query's items, decoded, in order.
    public var query: [QueryItem]

    /// The path and query items (the path gets a leading `/` if it has none).
    public init(path: String, query: [QueryItem] = []) {
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.query = query
    }

    /// Parses what a browser sends: `/a/b%20c?x=1&y=%C3%A9`. `nil` for anything that is not an
    /// absolute path, or that a browser would not send (control characters, a bad escape), or
    /// is over 2,048 bytes.
    public init?(_ text: String) {
        guard text.hasPrefix("/"), text.utf8.count <= 2048, !text.hasPrefix("//") else { return nil }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = Self.decode(parts[0], plusIsSpace: false) else { return nil }
        var query: [QueryItem] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.decode(nameValue[0], plusIsSpace: true),
                      let value = Self.decode(nameValue.count == 2 ? nameValue[1] : "", plusIsSpace: true) else { return nil }
                query.append(QueryItem(name, value))
            }
        }
        self.init(path: path, query: query)
    }

    /// The first value of the query item `name`.
    public subscript(name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The path's segments, decoded: `/flickr/photo/42` is `["flickr", "photo", "42"]`.
    public var segments: [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The address as a browser sends it, percent-encoded.
    public var description: String {
        var out = ""
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            out += "/" + Self.encode(segment, keeping: Self.pathCharacters)
        }
        if out.isEmpty { out = "/" }
        if !query.isEmpty {
            out += "?" + query.map { Self.encode($0.name, keeping: Self.queryCharacters) + "=" + Self.encode($0.value, keeping: Self.queryCharacters) }.joined(separator: "&")
        }
        return out
    }

    /// The root, `/`.
    public static let root = WebLocation(path: "/")

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    private static let pathCharacters = unreserved.union("!$'()*,;:@".utf8)
    private static let queryCharacters = unreserved.union("!$'()*,;:@/".utf8)

    /// `segments` as a relative path, each percent-encoded as a path's segment is
    /// (`["2", "a b"]` is `2/a%20b`).
    static func relativePath(_ segments: [String]) -> String {
        segments.map { encode($0, keeping: pathCharacters) }.joined(separator: "/")
    }

    private static func encode<S: StringProtocol>(_ text: S, keeping allowed: Set<UInt8>) -> String {
        var out = ""
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func decode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self),
              !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
