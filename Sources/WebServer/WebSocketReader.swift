#if WebServer
import Foundation
import NIOCore

/// A client's WebSocket frames read from its bytes (RFC 6455 §5, §7.4): a value — bytes in, events
/// out, no socket — so every rule is tested without one. The connection's handler feeds it what
/// the socket brought and runs what it says.
///
/// A frame is judged by its header before its payload is waited for (a message over the limit
/// is refused from its first header), and only whole frames are read: what is left of a frame
/// stays in the buffer for the next read. After a close or a refusal nothing more is read.
struct WebSocketReader {
    enum Event: Equatable {
        /// A whole message, its fragments joined: for the session.
        case message(SocketMessage)
        /// A ping: answer with a pong carrying `payload`.
        case ping([UInt8])
        /// The client closes: answer with `code` (its own, or 1000 when it gave none) and close.
        case close(UInt16)
        /// The client broke the protocol: close with `code`, and log `reason`.
        case refuse(code: UInt16, reason: String)
    }

    /// The largest message taken, its fragments together (``WebAppServer/Limits/messageBytes``).
    let messageBytes: Int
    private var fragments: [UInt8] = []
    /// The opcode of the message whose fragments are being read, or `nil` between messages.
    private var fragmentsOpcode: UInt8?
    /// A close was read or the client refused: nothing more is read.
    private(set) var isDone = false

    init(messageBytes: Int) {
        self.messageBytes = messageBytes
    }

    /// Reads every whole frame `buffer` holds, in order, and leaves the rest in it.
    mutating func read(_ buffer: inout ByteBuffer) -> [Event] {
        var events: [Event] = []
        while !isDone, buffer.readableBytes >= 2 {
            let start = buffer.readerIndex
            let size = FrameHeader.size(secondByte: buffer.getInteger(at: start + 1, as: UInt8.self) ?? 0)
            guard buffer.readableBytes >= size, let headerBytes = buffer.getBytes(at: start, length: size),
                  let header = FrameHeader.parse(headerBytes[...]) else { break }
            if let problem = problem(of: header) {
                events.append(refuse(problem.code, problem.reason))
                break
            }
            // Checked above: a data frame is within the message limit, a control frame 125 bytes.
            let length = Int(header.length)
            guard buffer.readableBytes >= size + length else { break }
            buffer.moveReaderIndex(forwardBy: size)
            var payload = buffer.readBytes(length: length) ?? []
            if let mask = header.mask {
                for index in payload.indices { payload[index] ^= mask[index & 3] }
            }
            if let event = take(header, payload) { events.append(event) }
        }
        return events
    }

    /// What a frame's header alone shows to be wrong: the header's own rules
    /// (``FrameHeader/problem()``), a frame out of its message's order, a message over the limit.
    private func problem(of header: FrameHeader) -> (code: UInt16, reason: String)? {
        if let problem = header.problem() { return problem }
        guard header.opcode < 8 else { return nil }
        if (header.opcode == FrameHeader.continuation) != (fragmentsOpcode != nil) {
            return (1002, "a frame out of order in a fragmented message")
        }
        let total = UInt64(fragments.count) + header.length
        if total > UInt64(messageBytes) {
            return (1009, "a message of \(total) bytes (the limit is \(messageBytes)), refused from its frame's header")
        }
        return nil
    }

    /// A whole frame, unmasked: what it means, or `nil` (a pong, a message's fragment).
    private mutating func take(_ header: FrameHeader, _ payload: [UInt8]) -> Event? {
        switch header.opcode {
        case FrameHeader.ping:
            return .ping(payload)
        case FrameHeader.pong:
            return nil
        case FrameHeader.close:
            isDone = true
            return Self.closing(payload)
        default:
            if fragmentsOpcode == nil { fragmentsOpcode = header.opcode }
            fragments += payload
            guard header.fin else { return nil }
            let bytes = fragments, opcode = fragmentsOpcode
            fragments = []
            fragmentsOpcode = nil
            guard opcode == FrameHeader.text else { return .message(.data(Data(bytes))) }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return refuse(1007, "a text message that is not UTF-8")
            }
            return .message(.text(text))
        }
    }

    private mutating func refuse(_ code: UInt16, _ reason: String) -> Event {
        isDone = true
        fragments = []
        return .refuse(code: code, reason: reason)
    }

    /// A client's close frame (§5.5.1, §7.1.5): without a payload, a close without a code (answered
    /// with 1000); else a code a client may send, echoed, and a reason in UTF-8 (§8.1).
    static func closing(_ payload: [UInt8]) -> Event {
        if payload.isEmpty { return .close(1000) }
        if payload.count == 1 { return .refuse(code: 1002, reason: "a close frame whose code is one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard mayBeSent(code) else { return .refuse(code: 1002, reason: "a close code a client may not send (\(code))") }
        guard String(validating: payload.dropFirst(2), as: UTF8.self) != nil else {
            return .refuse(code: 1007, reason: "a close reason that is not UTF-8")
        }
        return .close(code)
    }

    /// Whether a close frame may carry `code` (RFC 6455 §7.4.1–§7.4.2 and IANA's registry of
    /// codes): 1000–1003 and 1007–1014 are defined, 3000–4999 are for libraries and apps. Below
    /// 1000 is unused; 1004 is reserved; 1005, 1006 and 1015 say that no close frame carried a
    /// code, so none may; the rest of 1016–2999 is the protocol's, unassigned; 5000 and up are
    /// undefined.
    static func mayBeSent(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
#endif
