#if WebServer
import FlyingSocks
import Foundation
import Synchronization
import WebUI

extension WebAppServer {
    /// How the server is reached when it is not reached directly: the host names of its public
    /// address, and the reverse proxies in front of it (nginx, a load balancer).
    public struct Deployment: Sendable {
        /// The host names of the public address (`todo.example.com`): requests naming them are
        /// answered, as are those naming the address the server listens on (any other `Host` is
        /// a 421). A WebSocket's `Origin` must still name the `Host` it is sent to.
        public var hostNames: [String]
        /// The addresses of reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are
        /// believed (a client's own are not), and which are not held to
        /// ``Limits/connectionsPerAddress`` (a proxy's connections are its clients').
        public var trustedProxies: [String]
        /// The path the app is mounted under (`/todo`; empty at the root, the default): its
        /// pages, files and socket are answered under it (the proxy passes the path on
        /// unchanged), and the app's own addresses and routes are the same as at the root.
        public var path: String

        public init(hostNames: [String] = [], trustedProxies: [String] = [], path: String = "") {
            self.hostNames = hostNames
            self.trustedProxies = trustedProxies
            let trimmed = path.split(separator: "/").joined(separator: "/")
            self.path = trimmed.isEmpty ? "" : "/" + trimmed
        }

        /// `location` as the app sees it (without the path it is mounted under), or `nil` when
        /// it is not under that path.
        func appLocation(_ location: WebLocation) -> WebLocation? {
            guard !path.isEmpty else { return location }
            if location.path == path { return WebLocation(path: "/", query: location.query) }
            guard location.path.hasPrefix(path + "/") else { return nil }
            return WebLocation(path: String(location.path.dropFirst(path.count)), query: location.query)
        }

        /// The client behind `peer`: `peer` itself unless it is a trusted proxy; then the
        /// rightmost address of `forwardedFor` that is not a trusted proxy (the one the first
        /// trusted proxy saw).
        func client(peer: String, forwardedFor: [String]) -> String {
            guard trustedProxies.contains(peer) else { return peer }
            let chain = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for address in chain.reversed() where !trustedProxies.contains(address) { return address }
            return chain.first ?? peer
        }

        /// `http` or `https`: what a trusted proxy says the client used, else `http`.
        func scheme(peer: String, forwardedProto: String?) -> String {
            guard trustedProxies.contains(peer), let proto = forwardedProto?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased(),
                  proto == "https" || proto == "http" else { return "http" }
            return proto
        }
    }

    /// What the server lets clients take, as the trusted servers bound it (nginx's
    /// `client_header_timeout` and `keepalive_timeout`, Cowboy's `max_frame_size` and
    /// `idle_timeout`). A client over a limit is refused with a clear status (or a WebSocket
    /// close code) and the server logs why.
    public struct Limits: Sendable {
        /// Open connections in all (pages, their files, WebSockets). Also kept under the
        /// process's file limit.
        public var connections: Int
        /// Open connections from one client address (a browser opens about 6 per server, and
        /// one WebSocket per tab). Raise it when many users share an address (a NAT).
        public var connectionsPerAddress: Int
        /// How long a client may take to send a request's head and body.
        public var requestTimeout: Duration
        /// How long a connection may sit between requests.
        public var keepAliveTimeout: Duration
        /// How long a WebSocket may be silent; the server pings it after a third of this, and the
        /// browser answers for the page.
        public var webSocketIdleTimeout: Duration
        /// A request's head (request line and headers), in bytes (431 over it).
        public var requestHeadBytes: Int
        /// A request's body, in bytes (413 over it).
        public var requestBodyBytes: Int
        /// A WebSocket message, in bytes: a frame claiming more is refused (close 1009) from its
        /// header, before any of its payload is read.
        public var messageBytes: Int

        public init(connections: Int = 4096, connectionsPerAddress: Int = 256, requestTimeout: Duration = .seconds(10),
                    keepAliveTimeout: Duration = .seconds(20), webSocketIdleTimeout: Duration = .seconds(60),
                    requestHeadBytes: Int = 32 * 1024, requestBodyBytes: Int = 1024 * 1024, messageBytes: Int = 64 * 1024) {
            self.connections = connections
            self.connectionsPerAddress = connectionsPerAddress
            self.requestTimeout = requestTimeout
            self.keepAliveTimeout = keepAliveTimeout
            self.webSocketIdleTimeout = webSocketIdleTimeout
            self.requestHeadBytes = requestHeadBytes
            self.requestBodyBytes = requestBodyBytes
            self.messageBytes = messageBytes
        }
    }
}

/// One accepted connection as the reaper sees it: when it must have done what it is doing, and
/// for a WebSocket, when to ping it.
final class ConnectionRecord: Sendable {
    let address: String
    private struct State {
        var deadline: ContinuousClock.Instant
        var task: Task<Void, Never>?
        var cancelled = false
        /// A WebSocket's silence limit and how to ping it; `nil` for a request.
        var idle: Duration?
        var ping: (@Sendable () -> Void)?
        var pinged = false
    }
    private let state: Mutex<State>

    init(address: String, deadline: ContinuousClock.Instant) {
        self.address = address
        state = Mutex(State(deadline: deadline))
    }

    /// The task serving the connection (cancelled now if the connection already expired).
    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// What the connection does next must be done within `duration`.
    func expire(after duration: Duration) {
        state.withLock { state in
            state.deadline = .now + duration
            state.idle = nil
            state.ping = nil
        }
    }

    /// The connection is a WebSocket now: silent for `idle`, it is closed; silent for a third
    /// of that, `ping` asks the browser to answer.
    func webSocket(idle: Duration, ping: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.deadline = .now + idle
            state.idle = idle
            state.ping = ping
            state.pinged = false
        }
    }

    /// A WebSocket's client sent a frame.
    func heard() {
        state.withLock { state in
            guard let idle = state.idle else { return }
            state.deadline = .now + idle
            state.pinged = false
        }
    }

    /// Called by the reaper: cancels the connection past its deadline, pings a quiet WebSocket.
    /// Returns whether it was cancelled.
    func check(now: ContinuousClock.Instant) -> Bool {
        let (task, ping): (Task<Void, Never>?, (@Sendable () -> Void)?) = state.withLock { state in
            if now >= state.deadline {
                state.cancelled = true
                return (state.task, nil)
            }
            if let idle = state.idle, !state.pinged, now >= state.deadline - idle * 2 / 3 {
                state.pinged = true
                return (nil, state.ping)
            }
            return (nil, nil)
        }
        task?.cancel()
        ping?()
        return task != nil
    }

    /// Ends the connection (the server stops).
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}

/// The open connections, counted in all and by client address.
final class ConnectionTable: Sendable {
    private struct State {
        var records: [ObjectIdentifier: ConnectionRecord] = [:]
        var perAddress: [String: Int] = [:]
    }
    private let state = Mutex(State())
    let limit: Int
    let perAddressLimit: Int
    /// Addresses not held to the per-address limit (trusted proxies).
    let unlimited: Set<String>

    init(limit: Int, perAddressLimit: Int, unlimited: Set<String> = []) {
        self.limit = limit
        self.perAddressLimit = perAddressLimit
        self.unlimited = unlimited
    }

    /// A record for a new connection from `address`, or why it is refused.
    func admit(_ address: String, deadline: ContinuousClock.Instant) -> Result<ConnectionRecord, HTTPRefusal> {
        state.withLock { state in
            if state.records.count >= limit {
                return .failure(HTTPRefusal(status: 503, reason: "The server has \(limit) connections open; try again soon."))
            }
            if !unlimited.contains(address), state.perAddress[address, default: 0] >= perAddressLimit {
                return .failure(HTTPRefusal(status: 429, reason: "Your address has \(perAddressLimit) connections open; close some and try again."))
            }
            let record = ConnectionRecord(address: address, deadline: deadline)
            state.records[ObjectIdentifier(record)] = record
            state.perAddress[address, default: 0] += 1
            return .success(record)
        }
    }

    func remove(_ record: ConnectionRecord) {
        state.withLock { state in
            guard state.records.removeValue(forKey: ObjectIdentifier(record)) != nil else { return }
            let left = state.perAddress[record.address, default: 1] - 1
            state.perAddress[record.address] = left > 0 ? left : nil
        }
    }

    var all: [ConnectionRecord] { state.withLock { Array($0.records.values) } }
    var count: Int { state.withLock { $0.records.count } }
}

/// Bytes read from a socket, buffered: a request's head found in one pass over each byte, and
/// exactly `n` bytes when their length is known (and already checked).
struct ByteReader {
    let socket: AsyncSocket
    private var buffer: [UInt8] = []
    private var start = 0

    init(_ socket: AsyncSocket) {
        self.socket = socket
    }

    var buffered: Int { buffer.count - start }

    private mutating func fill() async throws {
        if start > 0, start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: try await socket.read(atMost: 16 * 1024))
    }

    /// The next request's head, through its empty line; `nil` when the client closed before
    /// sending one. Over `limit` bytes it is refused: 414 when even the request line has not
    /// ended within 8 KB, 431 otherwise.
    mutating func readHead(limit: Int) async throws -> ArraySlice<UInt8>? {
        // How far past `start` has been searched (an offset: filling may move the bytes).
        var searched = 0
        while true {
            // Empty lines before a request line are skipped (RFC 9112 §2.2).
            while searched == 0, start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
            var index = start + searched
            while index < buffer.count {
                if buffer[index] == 0x0A {
                    if index + 1 >= buffer.count { break }
                    if buffer[index + 1] == 0x0A {
                        return take(through: index + 1)
                    }
                    if buffer[index + 1] == 0x0D {
                        if index + 2 >= buffer.count { break }
                        if buffer[index + 2] == 0x0A { return take(through: index + 2) }
                    }
                }
                index += 1
            }
            searched = index - start
            if buffered > limit {
                let firstLine = buffer[start...].prefix(RequestHead.lineLimit + 1)
                if !firstLine.contains(0x0A), firstLine.count > RequestHead.lineLimit {
                    throw HTTPRefusal(status: 414, reason: "The request line is longer than \(RequestHead.lineLimit) bytes.")
                }
                throw HTTPRefusal(status: 431, reason: "The request's head is longer than \(limit) bytes.")
            }
            do {
                try await fill()
            } catch SocketError.disconnected where buffered == 0 {
                return nil
            }
        }
    }

    private mutating func take(through end: Int) -> ArraySlice<UInt8> {
        let head = buffer[start...end]
        start = end + 1
        return head
    }

    /// The next `count` bytes (the caller has checked `count` against its limit).
    mutating func read(exactly count: Int) async throws -> [UInt8] {
        while buffered < count { try await fill() }
        let bytes = Array(buffer[start..<(start + count)])
        start += count
        return bytes
    }

    /// At least `count` bytes buffered, without taking them.
    mutating func peek(_ count: Int) async throws -> ArraySlice<UInt8> {
        while buffered < count { try await fill() }
        return buffer[start...]
    }

    mutating func skip(_ count: Int) {
        start += count
    }
}
#endif
