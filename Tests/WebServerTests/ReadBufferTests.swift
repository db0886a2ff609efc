// Issue 58, T-BEYOND4 (the browser view layer's server): what a connection keeps of its reads between them, as a value (the two handlers'
// `Optional<ByteBuffer>.keep` and `dropIfRead`), tested with no socket: generated reads and
// partial takes against a model. An idle connection keeps no buffer: a read's buffer is as big as
// the reads before it were (up to 64 KB a connection, which at 15,000 tabs is 1 GB).
#if WebServer
import NIOCore
import Testing
@testable import WebServer

@Suite struct ReadBufferTests {
    /// Whatever the reads' sizes and however much of them is taken between reads, the bytes come
    /// out once and in order; after `dropIfRead` the buffer is gone exactly when all of it was
    /// read, and kept (with what is unread) otherwise.
    @Test func generatedReadsComeOutInOrderAndAReadBufferIsNotKept() {
        var random = SystemRandomNumberGenerator()
        let allocator = ByteBufferAllocator()
        for round in 0..<1_000 {
            var kept: ByteBuffer?
            var sent: [UInt8] = []
            var taken: [UInt8] = []
            for _ in 0..<Int.random(in: 1...20, using: &random) {
                let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                sent += bytes
                var read = allocator.buffer(bytes: bytes)
                kept.keep(&read)
                // The handler takes what it can: all of it, some, or none (a message cut short).
                let readable = kept?.readableBytes ?? 0
                let take = [0, readable, Int.random(in: 0...readable, using: &random)][Int.random(in: 0..<3, using: &random)]
                if take > 0 { taken += kept!.readBytes(length: take)! }
                let unread = kept?.readableBytes ?? 0
                kept.dropIfRead()
                #expect((kept == nil) == (unread == 0), "round \(round): \(unread) unread, buffer kept: \(kept != nil)")
                #expect(kept?.readableBytes ?? 0 == unread, "round \(round)")
            }
            if let rest = kept?.readableBytesView { taken += rest }
            #expect(taken == sent, "round \(round): \(taken.count) of \(sent.count) bytes, or out of order")
        }
    }
}
#endif
