// Issue 58: the way from a WebSocket to its session as a value (messages in, batches out), tested
// with no socket: generated runs of reads, batches, answers and a close, and the flood limit at
// its exact boundary.
#if WebServer
import Foundation
import Testing
import WebUI
@testable import WebServer

@Suite struct SessionInboxTests {
    /// T-BEYOND4: whatever order reads, answers and reads' ends come in, every message read
    /// reaches the session exactly once and in order (in batches, then the rest at the close);
    /// never two batches out at once; a batch goes as soon as the one before is answered; and
    /// `isAnswered` says exactly whether anything read is still unanswered.
    @Test func generatedRunsDeliverEveryMessageOnceInOrder() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<500 {
            var inbox = SessionInbox(limit: 1024)
            var sent = 0
            var delivered: [SocketMessage] = []
            var out: Int?   // the size of the batch with the session
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    for _ in 0..<Int.random(in: 1...5, using: &random) {
                        inbox.read(.text("m\(sent)"))
                        sent += 1
                    }
                case 1 where out != nil:
                    inbox.answered()
                    out = nil
                default:
                    break
                }
                // The end of a read, or an answer: what may go, goes.
                let waiting = inbox.waiting.count
                if let batch = inbox.nextBatch() {
                    #expect(out == nil && batch.count == waiting, "round \(round): a batch went while one was out, or not all that waited")
                    delivered += batch
                    out = batch.count
                } else {
                    #expect(out != nil || waiting == 0, "round \(round): nothing out, \(waiting) waiting, and no batch went")
                }
                #expect(inbox.isAnswered == (out == nil && inbox.waiting.isEmpty), "round \(round)")
            }
            delivered += inbox.takeRest()
            #expect(delivered == (0..<sent).map { .text("m\($0)") }, "round \(round): \(delivered.count) of \(sent) delivered, or out of order")
            #expect(inbox.waiting.isEmpty)
        }
    }

    /// The socket stops being read with more than `limit` messages behind a batch, not at
    /// `limit`; never while no batch is out (they go at once); and reads again once answered.
    @Test(arguments: [1, 2, 17, WebAppServer.Limits().messagesWaiting])
    func theFloodLimitHoldsAtItsBoundary(limit: Int) {
        for waiting in [limit - 1, limit, limit + 1] {
            var inbox = SessionInbox(limit: limit)
            inbox.read(.text("first"))
            #expect(inbox.nextBatch() == [.text("first")])
            for index in 0..<waiting { inbox.read(.text("\(index)")) }
            #expect(inbox.nextBatch() == nil)
            #expect(inbox.isFull == (waiting > limit), "\(waiting) waiting of \(limit)")
            inbox.answered()
            #expect(!inbox.isFull, "answered, \(waiting) waiting")
            #expect(inbox.nextBatch()?.count ?? 0 == waiting)
        }
        var idle = SessionInbox(limit: limit)
        for index in 0...limit + 5 { idle.read(.text("\(index)")) }
        #expect(!idle.isFull, "no batch out: nothing to wait for")
    }

    /// A WebSocket's inbox holds what the server's `Limits.messagesWaiting` says, not a constant
    /// of its own (the flood test's bound is the kernel's buffers, which a limit of 1,024 small
    /// messages hides).
    @Test(arguments: [1, 7, WebAppServer.Limits().messagesWaiting])
    func aWebSocketsInboxHasTheServersLimit(messagesWaiting: Int) throws {
        var limits = WebAppServer.Limits()
        limits.messagesWaiting = messagesWaiting
        let server = try WebAppServer(port: 0, sessions: WebSessions(routes: { _, _ in nil }), limits: limits, log: { _ in })
        let handler = WebSocketHandler(server: server, address: "127.0.0.1", after: nil, goingAway: false) { _ in
            preconditionFailure("no session is made before the handler is in a pipeline")
        }
        #expect(handler.inbox.limit == messagesWaiting)
    }

    /// Issue 59: bytes waiting count as messages do, at their exact boundary: a batch out and
    /// `byteLimit` bytes waiting behind it, the socket is still read; one byte more, it is not
    /// (a page sending a file's chunks faster than its session writes them is slowed to its
    /// pace). A batch taken, or the rest at the close, counts from zero again.
    @Test(arguments: [1, 24, 32_792, 512 * 1024])
    func bytesWaitingStopTheReadingPastTheirLimit(limit: Int) {
        var inbox = SessionInbox(limit: 1024, byteLimit: limit)
        inbox.read(.text("first"))
        _ = inbox.nextBatch()
        inbox.read(.data(Data(count: limit - 1)))
        inbox.read(.text("a"))
        #expect(!inbox.isFull, "\(limit) bytes waiting: read on")
        inbox.read(.data(Data(count: 1)))
        #expect(inbox.isFull, "\(limit + 1) bytes waiting: stop")
        inbox.answered()
        _ = inbox.nextBatch()
        #expect(!inbox.isFull && inbox.waitingBytes == 0)
        inbox.read(.data(Data(count: limit + 1)))
        #expect(inbox.isFull)
        _ = inbox.takeRest()
        #expect(inbox.waitingBytes == 0)
    }
}
#endif