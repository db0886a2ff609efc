#if WebServer
/// A WebSocket's messages on their way to its session, as a value (no socket, no session, no
/// executor): what the page sent waits here in order; one batch at a time is with the session,
/// and the next waits for its answer. Past ``limit`` messages or ``byteLimit`` bytes waiting
/// behind a batch (``WebAppServer/Limits/messagesWaiting``, ``WebAppServer/Limits/bytesWaiting``), the socket
/// is not read (``isFull``): a page that floods a busy session slows to the session's pace
/// instead of filling memory. When the socket closes, what still waits goes to the session's end
/// (``takeRest()``), so nothing read is lost.
struct SessionInbox {
    /// Messages waiting behind a batch, past which the socket is not read.
    let limit: Int
    /// Bytes waiting behind a batch (the messages' texts and data), past which the socket is
    /// not read.
    let byteLimit: Int

    init(limit: Int, byteLimit: Int = .max) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    private(set) var waiting: [SocketMessage] = []
    private(set) var waitingBytes = 0
    /// A batch is with the session and has not been answered.
    private(set) var batchOut = false

    /// A message read from the socket.
    mutating func read(_ message: SocketMessage) {
        waiting.append(message)
        waitingBytes += Self.size(of: message)
    }

    static func size(of message: SocketMessage) -> Int {
        switch message {
        case .text(let text): text.utf8.count
        case .data(let data): data.count
        case .close: 0
        }
    }

    /// The batch to hand to the session now: every message waiting, in order — or `nil` when
    /// none waits or a batch is already out (the messages then wait for its answer).
    mutating func nextBatch() -> [SocketMessage]? {
        guard !batchOut, !waiting.isEmpty else { return nil }
        defer { waiting = []; waitingBytes = 0 }
        batchOut = true
        return waiting
    }

    /// The session answered the batch that was out.
    mutating func answered() {
        batchOut = false
    }

    /// A batch is out and more than ``limit`` messages or ``byteLimit`` bytes wait behind it:
    /// stop reading the socket.
    var isFull: Bool { batchOut && (waiting.count > limit || waitingBytes > byteLimit) }

    /// Every message read has been answered: no batch out, none waiting.
    var isAnswered: Bool { !batchOut && waiting.isEmpty }

    /// The socket is closing: the messages still waiting, for the session's end (which comes
    /// after the batch it may be handling; its executor keeps their order).
    mutating func takeRest() -> [SocketMessage] {
        defer { waiting = []; waitingBytes = 0 }
        return waiting
    }
}
#endif
