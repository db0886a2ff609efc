// Issue 58: `--latency` and `--jitter` as a handler of their own in front of the connection's
// (LatencyHandler): everything each way waits its delay, in order, and a close waits behind
// what was written before it.
#if WebServer
import Foundation
import Testing
@testable import WebServer
@testable import WebUI

@Suite(.serialized) struct LatencyTests {
    let attack = WebServerAttackTests()

    func server(latency: Duration, jitter: Duration, log: Lines) throws -> WebAppServer {
        let sessions = WebSessions(limits: .init(sessions: 50, reconnectGrace: .seconds(60)), log: log.append) { Echo($0) }
        return try WebAppServer(port: 0, sessions: sessions, latency: latency, jitter: jitter, log: log.append)
    }

    /// A request and its answer each wait the latency: a page takes at least twice it.
    @Test func aRequestAndItsAnswerEachWaitTheLatency() async throws {
        let log = Lines()
        let server = try server(latency: .milliseconds(150), jitter: .zero, log: log)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        let started = ContinuousClock.now
        let client = try await RawClient.connect(port)
        try await client.send("GET /mvvm.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let (bytes, closed) = await client.readUntilClosed()
        let took = ContinuousClock.now - started
        #expect(closed && String(decoding: bytes.prefix(15), as: UTF8.self) == "HTTP/1.1 200 OK")
        #expect(took >= .milliseconds(300), "\(took)")
        await server.stop()
    }

    /// Pings sent one by one on a jittery connection come back as pongs in the order sent, and the
    /// close answering the page's comes after all of them (a close waits behind the writes).
    @Test func aJitteryConnectionKeepsItsOrderAndItsCloseComesLast() async throws {
        for (latency, jitter) in [(Duration.zero, Duration.milliseconds(200)), (.milliseconds(100), .milliseconds(100))] {
            let log = Lines()
            let server = try server(latency: latency, jitter: jitter, log: log)
            let (port, task) = try await attack.start(server)
            defer { task.cancel() }
            let client = try await attack.webSocket(port)
            let started = ContinuousClock.now
            for index in 0..<20 {
                try await client.send(clientFrame(FrameHeader.ping, [UInt8(index)]))
                try await Task.sleep(for: .milliseconds(2))
            }
            try await client.send(clientFrame(FrameHeader.close, [0x03, 0xE8]))
            let (bytes, closed) = await client.readUntilClosed()
            let took = ContinuousClock.now - started
            var pongs: [UInt8] = []
            var index = 0
            while index + 2 < bytes.count, bytes[index] == 0x8A, bytes[index + 1] == 1 {
                pongs.append(bytes[index + 2])
                index += 3
            }
            #expect(pongs == Array(0..<20), "latency \(latency), jitter \(jitter): \(pongs)")
            #expect(closed && attack.closeCode(bytes) == 1000 && index + 4 == bytes.count, "the close last, after every pong")
            #expect(took >= latency * 2, "\(took)")
            await server.stop()
        }
    }
}
#endif
