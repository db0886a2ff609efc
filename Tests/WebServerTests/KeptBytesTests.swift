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
