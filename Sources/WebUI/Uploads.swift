import ScreenKit
import Synchronization

/// The bytes of files on their way to every session of a server, reserved from each file's
/// declared size before any of its bytes is taken (``WebSessions/Limits/uploadBytes``, and for
/// each client address ``WebSessions/Limits/uploadBytesPerAddress``), so that what is being
/// received never outgrows what the server promised to hold, and no one address takes all of it.
final class UploadBudget: Sendable {
    let limit: Int
    let perAddress: Int
    private struct State {
        var reserved = 0
        var byAddress: [String: Int] = [:]
    }
    private let state = Mutex(State())
    /// The temporary files this server's sessions made (deleted by
    /// ``WebSessions/discardUploads()`` unless kept).
    private let made = Mutex<Set<String>>([])

    func track(_ path: String) {
        _ = made.withLock { $0.insert(path) }
    }

    /// Deletes every temporary file this server's sessions made that is still there (arriving,
    /// or received and not kept).
    func discardAll() {
        let paths = made.withLock { paths in defer { paths = [] }; return paths }
        ReceivedFile.discardTemporaryFiles { paths.contains($0) }
    }

    init(limit: Int, perAddress: Int) {
        self.limit = limit
        self.perAddress = perAddress
    }

    /// Reserves `bytes` for `client`; `false` (nothing reserved) when that would pass the
    /// server's limit or the address's.
    func reserve(_ bytes: Int, for client: String?) -> Bool {
        state.withLock { state in
            guard bytes <= limit - state.reserved else { return false }
            if let client {
                guard bytes <= perAddress - state.byAddress[client, default: 0] else { return false }
                state.byAddress[client, default: 0] += bytes
            }
            state.reserved += bytes
            return true
        }
    }

    func release(_ bytes: Int, for client: String?) {
        state.withLock { state in
            state.reserved -= bytes
            if let client {
                let left = state.byAddress[client, default: 0] - bytes
                state.byAddress[client] = left > 0 ? left : nil
            }
        }
    }

    /// The bytes reserved now (for tests).
    var inUse: Int { state.withLock { $0.reserved } }
}

/// One page's uploads: which file input each chunk's key belongs to, the bytes its uploads have
/// reserved (at most ``perSession``, and from the server's ``UploadBudget``), and every file it
/// received, deleted when the session ends.
///
/// A chunk is a binary message: the upload's key (16 bytes), the offset of its first byte (8
/// bytes, big-endian), then the bytes. A key is random (128 bits) and known only to the page
/// the session told it to: a chunk naming a key this page has not (another session's, a made-up
/// one) is refused.
final class PageUploads {
    /// What an input does with its chunks.
    struct Target {
        weak var input: FileInput?
    }

    private var targets: [String: Target] = [:]
    /// Keys ended lately (received whole, cancelled, refused): chunks the page sent before it
    /// heard are dropped without a word. The last 64.
    private var ended: [String] = []
    /// The most bytes this page's uploads in progress may reserve (``WebSessions/Limits/uploadBytesPerSession``).
    var perSession = Int.max
    /// The server's budget, shared by every session; `nil`: only ``perSession`` limits.
    var shared: UploadBudget?
    /// The client address the session was opened from (counted in ``shared`` per address).
    var client: String?
    private(set) var reserved = 0
    /// The temporary files the page's inputs received: deleted when the session ends.
    private var received: [ReceivedFile] = []

    /// Reserves `bytes` for an upload; `false` when this page or the server holds as much as it may.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes <= perSession - reserved else { return false }
        if let shared, !shared.reserve(bytes, for: client) { return false }
        reserved += bytes
        return true
    }

    func release(_ bytes: Int) {
        reserved -= bytes
        shared?.release(bytes, for: client)
    }

    func start(_ key: String, for input: FileInput) {
        targets[key] = Target(input: input)
    }

    func end(_ key: String) {
        guard targets.removeValue(forKey: key) != nil else { return }
        ended.append(key)
        if ended.count > 64 { ended.removeFirst(ended.count - 64) }
    }

    func keep(_ file: ReceivedFile) {
        received.append(file)
    }

    /// A chunk from the page: to the input whose upload its key names.
    func receive(_ chunk: [UInt8]) throws(ClientMessageError) {
        guard chunk.count >= 24 else { throw .malformed("a file chunk of \(chunk.count) bytes, shorter than its header (24)") }
        let key = Self.hex(chunk[0..<16])
        let offset = chunk[16..<24].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard let input = targets[key]?.input else {
            if ended.contains(key) { return }
            throw .malformed("a file chunk for no upload of this page")
        }
        try input.receive(key: key, offset: offset, bytes: chunk[24...])
    }

    /// The page's connection ended: its uploads in progress stop (their bytes cannot come after
    /// a reconnect), each input saying so.
    func interrupt() {
        for target in Array(targets.values) { target.input?.interruptUploads() }
    }

    /// The session ends: uploads stop and every file received is deleted (those the view model
    /// kept were moved away).
    func close() {
        for target in Array(targets.values) { target.input?.cancelUploads() }
        targets = [:]
        for file in received { file.discard() }
        received = []
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
