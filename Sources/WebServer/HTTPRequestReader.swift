#if WebServer
import Foundation
import NIOCore

/// A connection's requests read from its bytes (RFC 9112 §2–§6): a value — bytes in, a request or
/// a refusal out, no socket — so every rule is tested without one. The connection's handler
/// feeds it what the socket brought and answers what it reads.
///
/// Every length is checked before anything is kept for it: a head against ``headBytes`` as it
/// arrives and once it is whole, a body from its `Content-Length` before it comes. Each byte of a
/// head is looked at once, however the head arrives. After a request the reader waits for the
/// next one's head; after a refusal nothing more is read.
struct HTTPRequestReader {
    enum Event: Equatable {
        /// A whole request: its head and its body.
        case request(RequestHead, body: Data)
        /// The request cannot be taken: answer with this status and reason, and close.
        case refuse(HTTPRefusal)
    }

    enum State: Equatable {
        /// Reading a head; the first `searched` bytes of the buffer hold no end of it.
        case head(searched: Int)
        /// Reading a body of `length` bytes.
        case body(RequestHead, length: Int)
        /// A request was refused: nothing more is read.
        case refused
    }

    /// The longest head taken (``WebAppServer/Limits/requestHeadBytes``).
    let headBytes: Int
    /// The longest body taken (``WebAppServer/Limits/requestBodyBytes``).
    let bodyBytes: Int
    private(set) var state = State.head(searched: 0)

    init(headBytes: Int, bodyBytes: Int) {
        self.headBytes = headBytes
        self.bodyBytes = bodyBytes
    }

    /// Whether no byte of a next request has been read: a kept-alive connection between requests.
    var isBetweenRequests: Bool { state == .head(searched: 0) }

    /// Whether a head is being read (not a body, and not refused).
    var isReadingHead: Bool {
        if case .head = state { true } else { false }
    }

    /// The next request `buffer` holds, or its refusal; `nil` when more bytes are needed (what
    /// came of the request stays in `buffer`).
    mutating func next(_ buffer: inout ByteBuffer) -> Event? {
        switch state {
        case .head(let searched):
            return head(&buffer, searched: searched)
        case .body(let head, let length):
            guard buffer.readableBytes >= length else { return nil }
            state = .head(searched: 0)
            return .request(head, body: buffer.readData(length: length) ?? Data())
        case .refused:
            return nil
        }
    }

    private mutating func head(_ buffer: inout ByteBuffer, searched: Int) -> Event? {
        // Empty lines before a request line are skipped (RFC 9112 §2.2).
        if searched == 0 {
            while let byte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self), byte == 0x0D || byte == 0x0A {
                buffer.moveReaderIndex(forwardBy: 1)
            }
        }
        switch buffer.withUnsafeReadableBytes({ Self.endOfHead($0, from: searched) }) {
        case .found(let end):
            let bytes = buffer.readBytes(length: end + 1) ?? []
            do throws(HTTPRefusal) {
                // A head that came whole in one read is held to the same limit.
                if bytes.count > headBytes {
                    throw HTTPRefusal(status: 431, reason: "The request's head is longer than \(headBytes) bytes.")
                }
                let head = try RequestHead.parse(bytes[...])
                let length = try head.contentLength()
                if length > bodyBytes {
                    throw HTTPRefusal(status: 413, reason: "The request's body is over \(bodyBytes) bytes.")
                }
                state = .body(head, length: length)
                return next(&buffer)
            } catch {
                state = .refused
                return .refuse(error)
            }
        case .notYet(let scanned):
            if buffer.readableBytes > headBytes {
                let firstLine = buffer.readableBytesView.prefix(RequestHead.lineLimit + 1)
                state = .refused
                return .refuse(!firstLine.contains(0x0A) && firstLine.count > RequestHead.lineLimit
                    ? HTTPRefusal(status: 414, reason: "The request line is longer than \(RequestHead.lineLimit) bytes.")
                    : HTTPRefusal(status: 431, reason: "The request's head is longer than \(headBytes) bytes."))
            }
            state = .head(searched: scanned)
            return nil
        }
    }

    enum HeadEnd: Equatable {
        /// The head ends at this offset (its last line feed).
        case found(Int)
        /// No end yet; the bytes before this offset need not be looked at again.
        case notYet(Int)
    }

    /// The end of a head in `bytes` (lines end in CRLF or a bare LF), looking from `start`: one
    /// pass over each byte, however the head arrives.
    static func endOfHead(_ bytes: UnsafeRawBufferPointer, from start: Int) -> HeadEnd {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 >= bytes.count { break }
                if bytes[index + 1] == 0x0A { return .found(index + 1) }
                if bytes[index + 1] == 0x0D {
                    if index + 2 >= bytes.count { break }
                    if bytes[index + 2] == 0x0A { return .found(index + 2) }
                }
            }
            index += 1
        }
        return .notYet(index)
    }
}
#endif
