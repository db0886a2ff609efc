#if WebServer
import NIOCore
import Testing
@testable import WebServer

/// A connection keeps what it read until a whole frame or request is there. A peer whose
/// messages never end with a read (a file's chunks, each a little longer than a read) always
/// leaves part of one kept: the kept buffer must let go of what was read, or it keeps every byte
/// the connection ever brought (found by the upload attack: 25 MB of RSS for a 25 MB file).
@Suite struct KeptBytesTests {
    /// Reads of `read` bytes, each leaving the last `left` unread, `count` times: the buffer's
    /// capacity stays within a few reads, whatever the count.
    @Test(arguments: [(1_000, 10, 2_000), (65_536, 24, 400), (32_792, 32_000, 300)])
    func theKeptBufferLetsGoOfWhatWasRead(read: Int, left: Int, count: Int) {
        var kept: ByteBuffer?
        let allocator = ByteBufferAllocator()
        var largest = 0
        for _ in 0..<count {
            var bytes = allocator.buffer(capacity: read)
            bytes.writeRepeatingByte(7, count: read)
            kept.keep(&bytes)
            let readable = kept!.readableBytes
            kept!.moveReaderIndex(forwardBy: readable - min(left, readable))
            kept.dropIfRead()
            largest = max(largest, kept?.capacity ?? 0)
        }
        #expect(largest <= 4 * (read + left), "the kept buffer grew to \(largest) bytes for reads of \(read) keeping \(left)")
        #expect(kept?.readableBytes == min(left, read))
    }
}
#endif

#if WebServer
import Foundation
import Signals
@testable import WebUI

/// Issue 59: a server that stops takes the files its pages sent with it: one arriving when it
/// stopped leaves no temporary file behind (nor one received that no view model kept).
@Suite struct StoppedServerUploadTests {
    /// A page whose content is one file input taking any file.
    final class Files: WebSessionContent {
        let input = FileInput(label: "Files", accept: "", multiple: true) { _, _, _ in nil }
        init(_ document: Document) { document.root.setChildren([input]) }
        func close() {}
    }

    @Test func aStoppedServersUploadsLeaveNoFile() async throws {
        let sessions = WebSessions(limits: .init(sessions: 4)) { Files($0) }
        let server = try WebAppServer(port: 0, sessions: sessions, log: { _ in })
        let (_, task) = try await WebServerAttackTests().start(server)
        let path: String = try await withCheckedThrowingContinuation { continuation in
            WebExecutor.main.run {
                MainActor.assumeIsolated {
                    guard let session = sessions.open(), let files = session.content as? Files else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    let frames = Locked<[String]>([])
                    let token = session.connect(send: { frame in frames.withLock { $0.append(frame) } })
                    session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(session.document.render().frame)}"#, token: token)
                    session.receive(#"{"t":"f","id":"\#(files.input.input.id)","f":1,"p":"a.bin","l":100,"n":1}"#, token: token)
                    session.document.flush()
                    let key = frames.withLock { $0.joined() }.firstMatch(of: /"u","e\d+",1,"([0-9a-f]{32})"/)?.1
                    let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
                    continuation.resume(returning: key.map { folder + "/mvvmkit-upload-" + $0 } ?? "")
                }
            }
        }
        #expect(!path.isEmpty && FileManager.default.fileExists(atPath: path), "an upload arriving: its temporary file")
        await server.stop()
        try await task.value
        #expect(!FileManager.default.fileExists(atPath: path), "the server stopped: its pages' files went with it")
    }
}
#endif
