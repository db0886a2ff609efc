#if WebServer
import Foundation
import NIOCore

// What goes over the wire, read and written without a socket: a request's head (RFC 9112), a
// response's bytes, the WebSocket handshake and frames (RFC 6455). Parsed in one pass each,
// with every length checked before anything is read or allocated for it.

/// Why a request is refused before any route sees it: a status, and a sentence for the client
/// and the log.
struct HTTPRefusal: Error, Equatable, CustomStringConvertible {
    let status: Int
    let reason: String

    var description: String { "\(status) \(reason)" }
}

/// One header field, as received (the name lower-cased).
struct HeaderField: Equatable, Sendable {
    var name: String
    var value: String
}

/// A request's head: the request line and its header fields.
struct RequestHead: Equatable, Sendable {
    var method: String
    /// The request target, as sent (origin form: a path and query).
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var fields: [HeaderField]

    /// Limits on a head, as the trusted servers set them: nginx reads a request line or a header
    /// line of up to 8 KB, Cowboy 100 headers.
    static let lineLimit = 8192
    static let fieldCount = 100

    init(method: String, target: String, minorVersion: Int = 1, fields: [HeaderField]) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.fields = fields
    }

    /// The first value of header `name` (any case).
    subscript(_ name: String) -> String? {
        let name = name.lowercased()
        return fields.first { $0.name == name }?.value
    }

    /// Every value of header `name`.
    func values(_ name: String) -> [String] {
        let name = name.lowercased()
        return fields.filter { $0.name == name }.map(\.value)
    }

    /// Every `Cookie` header's pairs as one value, as RFC 9113 §8.2.3 joins them: a client or a
    /// proxy from HTTP/2 may send the browser's cookies split over several headers.
    var cookie: String? {
        let all = values("cookie")
        return all.isEmpty ? nil : all.joined(separator: "; ")
    }

    /// Whether `name`'s comma-separated values hold `token` (any case): `Connection: keep-alive, Upgrade`.
    func has(_ name: String, token: String) -> Bool {
        values(name).contains { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == token } }
    }

    /// HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 only when asked to keep it.
    var keepAlive: Bool {
        if has("connection", token: "close") { return false }
        return minorVersion >= 1 || has("connection", token: "keep-alive")
    }

    /// The body's length (0 without one). A body sent in chunks is refused (411), as are
    /// lengths that disagree or are not numbers (400), and both at once (a smuggling attempt).
    func contentLength() throws(HTTPRefusal) -> Int {
        let lengths = values("content-length")
        if !values("transfer-encoding").isEmpty {
            if !lengths.isEmpty { throw HTTPRefusal(status: 400, reason: "Both Content-Length and Transfer-Encoding were sent.") }
            throw HTTPRefusal(status: 411, reason: "Send a request body with a Content-Length.")
        }
        let all = lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = all.first else { return 0 }
        guard all.allSatisfy({ $0 == first }), first.count <= 18, !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(first) else {
            throw HTTPRefusal(status: 400, reason: "The Content-Length is not a number.")
        }
        return length
    }

    /// The path and query of the target (an absolute-form target, `http://host/path`, is
    /// reduced to its path, as servers must accept it).
    var originForm: String {
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let path = String(rest[slash...])
            return path.hasPrefix("?") ? "/" + path : path
        }
        return target
    }

    /// Whether `byte` may be in a token (a method or a header name).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Reads a head: the bytes up to and including its empty line, lines ending in CRLF or a
    /// bare LF (RFC 9112 §2.2). Anything a real server refuses is refused, with its status:
    /// a bare CR, a folded line, space before a colon, a control character in a value, a
    /// missing or repeated Host in HTTP/1.1 (400); a version other than 1.x (505); a line over
    /// 8 KB (414 for the request line, 431 for a header); more than 100 fields (431).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPRefusal) -> RequestHead {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                var end = index
                if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
                let line = bytes[lineStart..<end]
                if line.isEmpty { break }
                if line.contains(0x0D) { throw HTTPRefusal(status: 400, reason: "A line holds a bare carriage return.") }
                lines.append(line)
                if lines.count > fieldCount + 1 { throw HTTPRefusal(status: 431, reason: "More than \(fieldCount) header fields.") }
                lineStart = index + 1
            }
            index += 1
        }
        guard let requestLine = lines.first else { throw HTTPRefusal(status: 400, reason: "The request has no request line.") }
        if requestLine.count > lineLimit { throw HTTPRefusal(status: 414, reason: "The request line is longer than \(lineLimit) bytes.") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw HTTPRefusal(status: 400, reason: "The request line is not \"METHOD target HTTP/1.1\".")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            guard version.hasPrefix("HTTP/"), version.count == 8 else { throw HTTPRefusal(status: 400, reason: "The request line's version is not HTTP/1.x.") }
            throw HTTPRefusal(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are spoken here.")
        }
        var fields: [HeaderField] = []
        for line in lines.dropFirst() {
            if line.count > lineLimit { throw HTTPRefusal(status: 431, reason: "A header line is longer than \(lineLimit) bytes.") }
            guard let first = line.first, first != 0x20, first != 0x09 else {
                throw HTTPRefusal(status: 400, reason: "A header line is folded (starts with white space).")
            }
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex, line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
                throw HTTPRefusal(status: 400, reason: "A header line is not \"Name: value\".")
            }
            var value = line[(colon + 1)...]
            while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
            while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
            if value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                throw HTTPRefusal(status: 400, reason: "A header value holds a control character.")
            }
            fields.append(HeaderField(name: String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased(), value: String(decoding: value, as: UTF8.self)))
        }
        let head = RequestHead(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self), minorVersion: minor, fields: fields)
        let hosts = head.values("host")
        if hosts.count > 1 || (minor == 1 && hosts.isEmpty) {
            throw HTTPRefusal(status: 400, reason: hosts.isEmpty ? "An HTTP/1.1 request must name its Host." : "The request names more than one Host.")
        }
        return head
    }
}

/// A response's bytes: the status line, the headers (a header whose name or value could split
/// the response is dropped), the length, whether the connection stays, and the body.
func encodeResponse(status: Int, headers: [(String, String)], body: Data, bodyLength: Int? = nil, keepAlive: Bool) -> Data {
    var head = "HTTP/1.1 \(status) \(WebAppServer.phrase(status))\r\n"
    for (name, value) in headers where !name.isEmpty && name.utf8.allSatisfy(RequestHead.isTokenByte)
        && !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
        let lower = name.lowercased()
        if lower == "content-length" || lower == "connection" || lower == "transfer-encoding" { continue }
        head += "\(name): \(value)\r\n"
    }
    // A 304 or a 204 has no body and says no length (RFC 9110 §8.6: a 304's would be the
    // representation's, which it does not carry).
    if status != 304 && status != 204 { head += "Content-Length: \(bodyLength ?? body.count)\r\n" }
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    var data = Data(head.utf8)
    data.append(body)
    return data
}

/// The WebSocket handshake (RFC 6455 §4.2): what the upgrade must say, and the accept key.
enum WebSocketHandshake {
    /// The upgrade's `Sec-WebSocket-Accept`, or the refusal of a request that is not a version 13
    /// WebSocket upgrade with a 16-byte key.
    static func accept(_ head: RequestHead) throws(HTTPRefusal) -> String {
        guard head.method == "GET", head.minorVersion == 1 else { throw HTTPRefusal(status: 400, reason: "A WebSocket is opened with GET over HTTP/1.1.") }
        guard head.has("upgrade", token: "websocket"), head.has("connection", token: "upgrade") else {
            throw HTTPRefusal(status: 426, reason: "This address is a WebSocket: send Upgrade: websocket.")
        }
        guard head["sec-websocket-version"] == "13" else { throw HTTPRefusal(status: 426, reason: "Only WebSocket version 13 is spoken here.") }
        // RFC 6455 §11.3.1: the key appears once (two keys would leave which one is answered to us).
        guard head.values("sec-websocket-key").count == 1, let key = head["sec-websocket-key"], let decoded = Data(base64Encoded: key), decoded.count == 16 else {
            throw HTTPRefusal(status: 400, reason: "The Sec-WebSocket-Key is not one key of 16 bytes in base64.")
        }
        return acceptValue(key)
    }

    static func acceptValue(_ key: String) -> String {
        Data(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }
}

/// SHA-1 (FIPS 180-4), for the WebSocket handshake only (not for anything secret).
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let at = chunk + i * 4
                w[i] = UInt32(padded[at]) << 24 | UInt32(padded[at + 1]) << 16 | UInt32(padded[at + 2]) << 8 | UInt32(padded[at + 3])
            }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
        return h.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    private static func rotate(_ value: UInt32, _ by: UInt32) -> UInt32 { value << by | value >> (32 - by) }
}

/// A WebSocket frame's header (RFC 6455 §5.2), read before its payload, so a frame too long is
/// refused by its length alone.
struct FrameHeader: Equatable {
    var fin: Bool
    var reserved: UInt8
    var opcode: UInt8
    var mask: [UInt8]?
    var length: UInt64
    /// The bytes the header took.
    var size: Int

    static let continuation: UInt8 = 0, text: UInt8 = 1, binary: UInt8 = 2, close: UInt8 = 8, ping: UInt8 = 9, pong: UInt8 = 10

    /// How many bytes a header takes, known from its second byte (the mask bit and the short
    /// length).
    static func size(secondByte second: UInt8) -> Int {
        let short = second & 0x7F
        return 2 + (short == 126 ? 2 : short == 127 ? 8 : 0) + (second & 0x80 != 0 ? 4 : 0)
    }

    /// The header at the start of `bytes`, or `nil` when more bytes are needed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> FrameHeader? {
        guard bytes.count >= 2 else { return nil }
        let first = bytes[bytes.startIndex], second = bytes[bytes.startIndex + 1]
        let masked = second & 0x80 != 0
        let short = second & 0x7F
        let extra = short == 126 ? 2 : short == 127 ? 8 : 0
        let size = size(secondByte: second)
        guard bytes.count >= size else { return nil }
        var length = UInt64(short)
        if extra > 0 {
            length = 0
            for i in 0..<extra { length = length << 8 | UInt64(bytes[bytes.startIndex + 2 + i]) }
        }
        let maskStart = bytes.startIndex + 2 + extra
        return FrameHeader(fin: first & 0x80 != 0, reserved: first & 0x70, opcode: first & 0x0F,
                           mask: masked ? Array(bytes[maskStart..<maskStart + 4]) : nil, length: length, size: size)
    }

    /// What is wrong with a client's frame (the close code and why), or `nil`: extensions were
    /// not agreed, so reserved bits are errors; a client masks every frame; control frames are
    /// whole and short; a 64-bit length has its top bit clear.
    func problem() -> (code: UInt16, reason: String)? {
        if reserved != 0 { return (1002, "reserved bits set") }
        if ![Self.continuation, Self.text, Self.binary, Self.close, Self.ping, Self.pong].contains(opcode) { return (1002, "unknown opcode \(opcode)") }
        if mask == nil { return (1002, "an unmasked frame from a client") }
        if opcode >= 8, !fin || length > 125 { return (1002, "a fragmented or long control frame") }
        if length >> 63 != 0 { return (1002, "a length with its top bit set") }
        return nil
    }

    /// A server's frame header (never masked) for a payload of `length` bytes.
    static func write(opcode: UInt8, length: Int, into buffer: inout ByteBuffer) {
        buffer.writeInteger(0x80 | opcode)
        if length < 126 {
            buffer.writeInteger(UInt8(length))
        } else if length <= 0xFFFF {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
    }

    /// A server's frame (never masked): its header, as ``write(opcode:length:into:)`` writes
    /// it, and its payload.
    static func encode(opcode: UInt8, payload: some Collection<UInt8>) -> Data {
        var buffer = ByteBufferAllocator().buffer(capacity: payload.count + 10)
        write(opcode: opcode, length: payload.count, into: &buffer)
        buffer.writeBytes(payload)
        return Data(buffer.readableBytesView)
    }
}
#endif
