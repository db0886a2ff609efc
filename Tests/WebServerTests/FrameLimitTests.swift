// Issue 57, T-BEYOND4 (the rules on the less-travelled paths): every kind of WebSocket frame at
// its limit, from both sides. A control frame (ping, pong, close) carries at most 125 bytes
// (RFC 6455 §5.5); a message (text, binary, or fragments joined) at most the server's
// `messageBytes`, checked from each frame's header.
#if WebServer
import Foundation
import Testing
@testable import WebServer
@testable import WebUI

@Suite(.serialized) struct FrameLimitTests {
    let attack = WebServerAttackTests()

    /// Each control opcode at 125 bytes is taken (a ping answered with the same 125 bytes, a pong
    /// ignored, a close answered with its code); at 126 the socket is closed with 1002.
    @Test func aControlFrameOf125BytesIsTakenAndOf126Refused() async throws {
        let log = Lines()
        let server = try await attack.server(log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        for opcode in [FrameHeader.ping, FrameHeader.pong, FrameHeader.close] {
            for length in [125, 126] {
                let client = try await attack.webSocket(port)
                // A close's payload is a code (1000) and a reason; the others, any bytes.
                let payload = opcode == FrameHeader.close ? [0x03, 0xE8] + [UInt8](repeating: 0x61, count: length - 2) : [UInt8](repeating: 0x62, count: length)
                try await client.send(clientFrame(opcode, payload))
                // Then a close of our own: a socket that took the frame answers it with 1000.
                if opcode != FrameHeader.close { try await client.send(clientFrame(FrameHeader.close, [0x03, 0xE8])) }
                let (bytes, closed) = await client.readUntilClosed()
                let code = attack.closeCode(bytes)
                if length == 125 {
                    #expect(closed && code == 1000, "opcode \(opcode), \(length) bytes: closed with \(String(describing: code))")
                    if opcode == FrameHeader.ping {
                        #expect(Array(bytes.prefix(2 + 125)) == [0x8A, 125] + payload, "the pong carries the ping's 125 bytes")
                    }
                } else {
                    #expect(closed && code == 1002, "opcode \(opcode), \(length) bytes: closed with \(String(describing: code))")
                }
            }
        }
        await server.stop()
    }

    /// A text message, a binary one, and a text message in two fragments, each of exactly the
    /// limit (taken by the frame reader: the session then judges it) and one byte over (closed
    /// with 1009 from the header of the frame that crosses it, its payload never read).
    @Test func aMessageOfEachKindAtTheLimitIsReadAndOneByteOverIsRefused() async throws {
        let log = Lines()
        let limit = 1000
        let server = try await attack.server(.init(messageBytes: limit), log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        enum Kind: CaseIterable { case text, binary, fragments }
        for kind in Kind.allCases {
            for length in [limit, limit + 1] {
                let client = try await attack.webSocket(port)
                let bytes = [UInt8](repeating: 0x61, count: length)
                switch kind {
                case .text: try await client.send(clientFrame(FrameHeader.text, bytes))
                case .binary: try await client.send(clientFrame(FrameHeader.binary, bytes))
                case .fragments:
                    try await client.send(clientFrame(FrameHeader.text, Array(bytes.prefix(length / 2)), fin: false))
                    try await client.send(clientFrame(FrameHeader.continuation, Array(bytes.dropFirst(length / 2))))
                }
                // Then a close of our own, which a socket still reading answers (a binary message
                // is not for the session, which leaves the socket open).
                try? await client.send(clientFrame(FrameHeader.close, [0x03, 0xE8]))
                let (received, closed) = await client.readUntilClosed()
                let code = attack.closeCode(received)
                if length == limit {
                    // Read whole and handed to the session, which refuses a first message that is
                    // not a hello (1008): anything but the frame reader's 1009.
                    #expect(closed && code != nil && code != 1009, "\(kind) of \(length) bytes: closed with \(String(describing: code))")
                } else {
                    #expect(closed && code == 1009, "\(kind) of \(length) bytes: closed with \(String(describing: code))")
                    #expect(log.all.contains { $0.contains("a message of \(length) bytes (the limit is \(limit))") }, "\(kind): \(log.all.suffix(3))")
                }
            }
        }
        await server.stop()
    }
}
#endif

#if WebServer
/// Issue 57 (memory comes back): a closed connection keeps nothing in memory. Kept alive by a
/// cycle (the handler held its pipeline's context, which held the handler), every connection the
/// server ever served stayed: LeakSanitizer found them with the server's trait.
@Suite struct ClosedConnectionTests {
    @Test func everyClosedConnectionsHandlerIsFreed() async throws {
        let attack = WebServerAttackTests()
        let log = Lines()
        let server = try await attack.server(log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        // Requests answered and closed, a refused request, WebSockets closed by either side.
        for _ in 0..<5 { _ = try await RawClient.get("/nowhere", port: port) }
        let refused = try await RawClient.connect(port)
        try await refused.send("GET / HTTP/1.1\r\n\r\n")
        _ = await refused.readUntilClosed()
        for index in 0..<4 {
            let socket = try await attack.webSocket(port)
            if index.isMultiple(of: 2) {
                try await socket.send(clientFrame(FrameHeader.close, [0x03, 0xE8]))
                _ = await socket.readUntilClosed()
            } else {
                socket.close()
            }
        }
        let clock = ContinuousClock(), started = clock.now
        while server.handlersInMemory.load(ordering: .relaxed) > 0, clock.now - started < .seconds(20) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.handlersInMemory.load(ordering: .relaxed) == 0, "handlers of closed connections still in memory")
        await server.stop()
    }
}
#endif
