// Issue 58: the WebSocket's frame reading as a value (bytes in, events out), tested with no
// socket: generated streams of messages, fragments and control frames cut at every place, the
// message limit at its exact boundary, and the close codes a client may send (RFC 6455 §7.4).
#if WebServer
import Foundation
import NIOCore
import Testing
@testable import WebServer

@Suite struct WebSocketReaderTests {
    /// Feeds `bytes` to a reader in pieces of the given sizes (the last piece takes the rest) and
    /// returns every event, and how many bytes were left unread.
    func read(_ bytes: [UInt8], in pieces: [Int] = [], messageBytes: Int = 1 << 16) -> (events: [WebSocketReader.Event], left: Int) {
        var reader = WebSocketReader(messageBytes: messageBytes)
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
        var events: [WebSocketReader.Event] = []
        var offset = 0
        for size in pieces + [bytes.count] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            buffer.writeBytes(bytes[offset..<end])
            offset = end
            events += reader.read(&buffer)
        }
        return (events, buffer.readableBytes)
    }

    /// T-BEYOND4: a stream of text and binary messages, each in one to four fragments with pings
    /// and pongs between them, then a close: whatever pieces the socket brings it in (one byte at
    /// a time, all at once, anything between), the messages come out whole, in order, the pings
    /// in their place, the close last, and nothing is left.
    @Test func generatedStreamsReadTheSameHoweverTheyAreCut() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var bytes: [UInt8] = []
            var expected: [WebSocketReader.Event] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let isText = Bool.random(using: &random)
                let payload: [UInt8] = isText
                    ? Array(String((0..<Int.random(in: 0...40, using: &random)).map { _ in "aé茶🙂".randomElement(using: &random)! }).utf8)
                    : (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                // Cut anywhere, a code point's bytes too: the text is judged when it is whole.
                var cuts = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0...payload.count, using: &random) }.sorted()
                cuts = [0] + cuts + [payload.count]
                for index in 0..<cuts.count - 1 {
                    let opcode = index == 0 ? (isText ? FrameHeader.text : FrameHeader.binary) : FrameHeader.continuation
                    let fin = index == cuts.count - 2
                    bytes += clientFrame(opcode, Array(payload[cuts[index]..<cuts[index + 1]]), fin: fin)
                    if fin { expected.append(.message(isText ? .text(String(decoding: payload, as: UTF8.self)) : .data(Data(payload)))) }
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        let ping = Array("p\(round)-\(index)".utf8)
                        bytes += clientFrame(FrameHeader.ping, ping)
                        expected.append(.ping(ping))
                    }
                    if Int.random(in: 0..<6, using: &random) == 0 { bytes += clientFrame(FrameHeader.pong, [1, 2]) }
                }
            }
            let code = [1000, 1001, 3000, 4999].randomElement(using: &random)!
            bytes += clientFrame(FrameHeader.close, [UInt8(code >> 8), UInt8(code & 0xFF)])
            expected.append(.close(UInt16(code)))
            let ways: [[Int]] = [[], Array(repeating: 1, count: bytes.count),
                                 (0..<bytes.count).map { _ in Int.random(in: 1...20, using: &random) }]
            for pieces in ways {
                let (events, left) = read(bytes, in: pieces)
                #expect(events == expected, "round \(round), \(pieces.count) pieces, the stream: \(bytes)")
                #expect(left == 0, "round \(round)")
            }
        }
    }

    /// Nothing after a close is read: a message behind it stays in the buffer.
    @Test func nothingIsReadAfterAClose() {
        let bytes = clientFrame(FrameHeader.close, [0x03, 0xE8]) + clientFrame(FrameHeader.text, Array("late".utf8))
        let (events, left) = read(bytes)
        #expect(events == [.close(1000)])
        #expect(left == 6 + 4)
    }

    /// The message limit at its exact boundary, from both sides, whole and in fragments; one byte
    /// over is refused from the header of the frame that crosses it, before its payload comes.
    @Test func theMessageLimitHoldsAtItsBoundary() {
        let limit = 300
        for length in [limit - 1, limit, limit + 1] {
            let payload = [UInt8](repeating: 0x61, count: length)
            let whole = clientFrame(FrameHeader.binary, payload)
            let fragments = clientFrame(FrameHeader.text, Array(payload[..<100]), fin: false)
                + clientFrame(FrameHeader.continuation, Array(payload[100...]))
            for bytes in [whole, fragments] {
                let (events, _) = read(bytes, messageBytes: limit)
                if length <= limit {
                    #expect(events.count == 1 && events.first.map { if case .message = $0 { true } else { false } } == true, "\(length) bytes")
                } else {
                    #expect(events == [.refuse(code: 1009, reason: "a message of \(length) bytes (the limit is \(limit)), refused from its frame's header")])
                }
            }
            // The header alone (its payload not yet sent) is enough to refuse.
            let header = Array(whole.prefix(FrameHeader.size(secondByte: whole[1])))
            let (events, _) = read(header, messageBytes: limit)
            #expect(events == (length <= limit ? [] : [.refuse(code: 1009, reason: "a message of \(length) bytes (the limit is \(limit)), refused from its frame's header")]))
        }
    }

    /// Frames out of a message's order and text that is not UTF-8 are refused with their codes.
    @Test func framesOutOfOrderAndBadTextAreRefused() {
        let outOfOrder: [[UInt8]] = [
            clientFrame(FrameHeader.continuation, [0x61]),
            clientFrame(FrameHeader.text, [0x61], fin: false) + clientFrame(FrameHeader.text, [0x62]),
            clientFrame(FrameHeader.binary, [0x61], fin: false) + clientFrame(FrameHeader.binary, [0x62]),
        ]
        for bytes in outOfOrder {
            #expect(read(bytes).events == [.refuse(code: 1002, reason: "a frame out of order in a fragmented message")])
        }
        #expect(read(clientFrame(FrameHeader.text, [0xC3, 0x28])).events == [.refuse(code: 1007, reason: "a text message that is not UTF-8")])
        // A ping between two fragments is answered in its place.
        let bytes = clientFrame(FrameHeader.text, Array("a".utf8), fin: false) + clientFrame(FrameHeader.ping, [7])
            + clientFrame(FrameHeader.continuation, Array("b".utf8))
        #expect(read(bytes).events == [.ping([7]), .message(.text("ab"))])
    }

    /// Every code a close frame can hold, judged as RFC 6455 §7.4 and IANA's registry say: the
    /// defined codes and the libraries' and apps' range are echoed; the rest is refused with
    /// 1002. The boundaries named one by one, from both sides.
    @Test func everyCloseCodeIsJudgedAsTheRFCSays() {
        let defined: Set<UInt16> = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014]
        for code in UInt16.min...UInt16.max {
            let allowed = defined.contains(code) || (3000..<5000).contains(code)
            let event = WebSocketReader.closing([UInt8(code >> 8), UInt8(code & 0xFF)])
            let expected: WebSocketReader.Event = allowed ? .close(code) : .refuse(code: 1002, reason: "a close code a client may not send (\(code))")
            if event != expected { Issue.record("close code \(code): \(event), expected \(expected)") }
        }
        for (code, allowed) in [(999, false), (1000, true), (1003, true), (1004, false), (1005, false), (1006, false), (1007, true),
                                (1014, true), (1015, false), (2999, false), (3000, true), (4999, true), (5000, false)] {
            #expect(WebSocketReader.mayBeSent(UInt16(code)) == allowed, "\(code)")
        }
    }

    /// A close without a code is answered with 1000; a one-byte code and a reason that is not
    /// UTF-8 are refused; a reason in UTF-8 is taken.
    @Test func aClosesPayloadIsChecked() {
        #expect(WebSocketReader.closing([]) == .close(1000))
        #expect(WebSocketReader.closing([0x03]) == .refuse(code: 1002, reason: "a close frame whose code is one byte"))
        #expect(WebSocketReader.closing([0x03, 0xE9] + Array("bye 茶".utf8)) == .close(1001))
        #expect(WebSocketReader.closing([0x03, 0xE9, 0xC3, 0x28]) == .refuse(code: 1007, reason: "a close reason that is not UTF-8"))
    }
}
#endif
