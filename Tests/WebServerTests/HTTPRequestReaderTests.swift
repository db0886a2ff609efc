// Issue 58: a connection's requests read by a value (bytes in, a request or a refusal out), tested
// with no socket: generated pipelines of requests cut at every place, and each limit at its exact
// boundary, from both sides, whole and arriving in pieces.
#if WebServer
import Foundation
import NIOCore
import Testing
@testable import WebServer

@Suite struct HTTPRequestReaderTests {
    /// Feeds `bytes` to a reader in pieces of the given sizes (the last piece takes the rest), as
    /// a connection does: every event, the bytes left unread, and the reader.
    func read(_ bytes: [UInt8], in pieces: [Int] = [], headBytes: Int = 16_384, bodyBytes: Int = 1 << 20)
        -> (events: [HTTPRequestReader.Event], left: Int, reader: HTTPRequestReader) {
        var reader = HTTPRequestReader(headBytes: headBytes, bodyBytes: bodyBytes)
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
        var events: [HTTPRequestReader.Event] = []
        var offset = 0
        for size in pieces + [bytes.count] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            buffer.writeBytes(bytes[offset..<end])
            offset = end
            while let event = reader.next(&buffer) { events.append(event) }
        }
        return (events, buffer.readableBytes, reader)
    }

    func request(_ text: String) throws -> RequestHead {
        try RequestHead.parse(ArraySlice(Array(text.utf8)))
    }

    /// T-BEYOND4: pipelined requests — GET and POST, bodies of any bytes, header lines ending in
    /// CRLF or a bare LF, empty lines between requests — come out whole and in order however the
    /// socket cuts them (all at once, a byte at a time, random pieces), with nothing left over.
    @Test func generatedPipelinesReadTheSameHoweverTheyAreCut() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var bytes: [UInt8] = []
            var expected: [HTTPRequestReader.Event] = []
            for index in 0..<Int.random(in: 1...5, using: &random) {
                let end = Bool.random(using: &random) ? "\r\n" : "\n"
                let body = (0..<(Bool.random(using: &random) ? 0 : Int.random(in: 0...300, using: &random))).map { _ in UInt8.random(in: 0...255, using: &random) }
                let method = body.isEmpty && Bool.random(using: &random) ? "GET" : "POST"
                var head = "\(method) /r\(round)/\(index)?q=\(Int.random(in: 0...999, using: &random)) HTTP/1.1\(end)Host: a\(end)"
                for field in 0..<Int.random(in: 0...4, using: &random) { head += "X-F\(field): \(String(repeating: "v", count: Int.random(in: 0...50, using: &random)))\(end)" }
                if method == "POST" { head += "Content-Length: \(body.count)\(end)" }
                head += end
                if Bool.random(using: &random) { bytes += Array("\r\n".utf8) }   // an empty line before a request is skipped
                bytes += Array(head.utf8) + body
                expected.append(.request(try request(head), body: Data(body)))
            }
            for pieces in [[], Array(repeating: 1, count: bytes.count), (0..<bytes.count).map { _ in Int.random(in: 1...40, using: &random) }] {
                let (events, left, reader) = read(bytes, in: pieces)
                #expect(events == expected, "round \(round), \(pieces.count) pieces")
                #expect(left == 0 && reader.isBetweenRequests, "round \(round): \(left) bytes left")
            }
        }
    }

    /// A head of exactly the limit is read and one byte longer is refused with 431 — whole, and
    /// arriving a byte at a time (refused as soon as the bytes without an end pass the limit).
    @Test func theHeadLimitHoldsAtItsBoundary() {
        let limit = 200
        for length in [limit - 1, limit, limit + 1] {
            let start = "GET / HTTP/1.1\r\nHost: a\r\nX: "
            let head = start + String(repeating: "v", count: length - start.utf8.count - 4) + "\r\n\r\n"
            #expect(head.utf8.count == length)
            for pieces in [[], Array(repeating: 1, count: length)] {
                let events = read(Array(head.utf8), in: pieces, headBytes: limit).events
                if length <= limit {
                    #expect(events.count == 1 && events.first.map { if case .request = $0 { true } else { false } } == true, "\(length) bytes")
                } else {
                    #expect(events == [.refuse(HTTPRefusal(status: 431, reason: "The request's head is longer than \(limit) bytes."))], "\(length) bytes, \(pieces.count) pieces")
                }
            }
        }
        // A head still coming: the limit's worth of bytes with no end is waited on, one more is
        // refused at once (the end is not waited for).
        let unfinished = Array("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "v", count: limit))".utf8)
        #expect(read(Array(unfinished.prefix(limit)), headBytes: limit).events.isEmpty)
        #expect(read(Array(unfinished.prefix(limit + 1)), headBytes: limit).events
            == [.refuse(HTTPRefusal(status: 431, reason: "The request's head is longer than \(limit) bytes."))])
        // Bytes past the limit with no line's end yet: a request line longer than any line may be
        // is a 414, a head a 431.
        let line = Array("GET /\(String(repeating: "a", count: RequestHead.lineLimit)) HTTP/1.1".utf8)
        #expect(read(line, headBytes: RequestHead.lineLimit).events == [.refuse(HTTPRefusal(status: 414, reason: "The request line is longer than \(RequestHead.lineLimit) bytes."))])
    }

    /// A body of exactly the limit is read; one byte over is refused with 413 from its
    /// Content-Length, before any of it comes.
    @Test func theBodyLimitHoldsAtItsBoundaryBeforeTheBodyComes() {
        let limit = 100
        for length in [limit - 1, limit, limit + 1] {
            let head = Array("POST /f HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n".utf8)
            let (events, _, reader) = read(head, bodyBytes: limit)
            if length <= limit {
                #expect(events.isEmpty && !reader.isReadingHead, "\(length): the body is waited for")
                let whole = read(head + [UInt8](repeating: 0x62, count: length), bodyBytes: limit).events
                #expect(whole.count == 1, "\(length) bytes")
            } else {
                #expect(events == [.refuse(HTTPRefusal(status: 413, reason: "The request's body is over \(limit) bytes."))])
            }
        }
    }

    /// After a refusal nothing more is read, even a good request behind it.
    @Test func nothingIsReadAfterARefusal() {
        let bytes = Array("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let (events, left, reader) = read(bytes)
        #expect(events.count == 1 && events.first.map { if case .refuse(let refusal) = $0 { refusal.status == 400 } else { false } } == true)
        #expect(reader.state == .refused && left > 0)
    }
}
#endif
