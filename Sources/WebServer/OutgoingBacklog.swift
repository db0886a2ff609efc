#if WebServer
/// What a WebSocket's page has not read, as the server counts it: the bytes written while the
/// channel could not take more (past SwiftNIO's high water mark, on top of what the kernel's
/// buffers hold). A page that stops reading (a frozen tab, a client that never reads) would
/// otherwise make the server keep every frame its session sends; past
/// ``WebAppServer/Limits/outgoingBytes`` the page is closed, and when it reads again it
/// reconnects and catches up from its session's kept frames, or the whole page.
struct OutgoingBacklog {
    /// Bytes that may wait while the channel cannot take more.
    let limit: Int
    /// Bytes written since the channel last could take more.
    private(set) var bytes = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// A frame of `count` bytes is being written, the channel `writable` or not; `false` when
    /// it would put the backlog past the limit (the page is to be closed, the frame not written).
    mutating func write(_ count: Int, writable: Bool) -> Bool {
        guard !writable else { return true }
        guard bytes + count <= limit else { return false }
        bytes += count
        return true
    }

    /// The channel can take more: what waited was sent on.
    mutating func drained() {
        bytes = 0
    }
}
#endif
