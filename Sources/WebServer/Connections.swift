#if WebServer
import Foundation
import Signals
import NIOCore
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
        /// Open connections in all (pages, their files, WebSockets). By default as many as the
        /// process's file limit allows, less 64 for the listener, logs and the app's own files
        /// (the server raises its soft file limit to the hard one as it starts, as Go's runtime
        /// does); a larger value is still held under that.
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
        /// How long ``WebAppServer/stop()`` waits for the connections to finish (a response
        /// being answered, a session answering what its page sent) before it closes the rest,
        /// as nginx's `worker_shutdown_timeout`.
        public var shutdownGrace: Duration = .seconds(10)
        /// Requests answered on one kept-alive connection before it is closed after its answer
        /// (nginx's `keepalive_requests`, 1,000): a client's connections are renewed now and then.
        public var requestsPerConnection = 1000
        /// After a refusal, how long the connection is read (and what is read dropped) before it
        /// is closed, and how much at most: closing with unread bytes resets the connection, and a
        /// reset can discard the answer before the client reads it (nginx's lingering close:
        /// `lingering_time`, `lingering_timeout`).
        public var lingeringTime: Duration = .seconds(2)
        public var lingeringBytes = 1024 * 1024
        /// Bytes a WebSocket's page may leave unread past what the socket's buffers hold (the
        /// frames its session sent while the page did not read: a frozen tab, a client that
        /// never reads); past it the page is closed, and when it reads again it reconnects and
        /// catches up (from its session's kept frames, or the whole page). The default is what a
        /// session keeps for a page that reconnects (WebUI's `WebSessions.Limits.bytesKept`).
        public var outgoingBytes = 1024 * 1024
        /// Messages a WebSocket's page may have waiting while its session handles the ones it
        /// sent before; past it the socket is not read until the session has answered, so a page
        /// that floods a busy session is slowed to the session's pace (TCP holds the rest in the
        /// page's buffers) and nothing it sent is dropped or held in the server's memory.
        public var messagesWaiting = 1024
        /// Bytes a WebSocket's page may have waiting, as ``messagesWaiting`` counts messages: the
        /// memory a page sending files (or any large messages) holds in the server while its
        /// session writes what came before, at most (plus one message, ``messageBytes``).
        public var bytesWaiting = 512 * 1024

        public init(connections: Int = .max, connectionsPerAddress: Int = 256, requestTimeout: Duration = .seconds(10),
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

/// The open connections, counted in all and by client address.
final class ConnectionTable: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var perAddress: [String: Int] = [:]
    }
    private let state = Locked(State())
    let limit: Int
    let perAddressLimit: Int
    /// Addresses not held to the per-address limit (trusted proxies).
    let unlimited: Set<String>

    init(limit: Int, perAddressLimit: Int, unlimited: Set<String> = []) {
        self.limit = limit
        self.perAddressLimit = perAddressLimit
        self.unlimited = unlimited
    }

    /// Counts `channel`, a new connection from `address`, or says why it is refused.
    func admit(_ channel: any Channel, from address: String) -> HTTPRefusal? {
        state.withLock { state in
            if state.channels.count >= limit {
                return HTTPRefusal(status: 503, reason: "The server has \(limit) connections open; try again soon.")
            }
            if !unlimited.contains(address), state.perAddress[address, default: 0] >= perAddressLimit {
                return HTTPRefusal(status: 429, reason: "Your address has \(perAddressLimit) connections open; close some and try again.")
            }
            state.channels[ObjectIdentifier(channel)] = channel
            state.perAddress[address, default: 0] += 1
            return nil
        }
    }

    /// `channel`, admitted from `address`, closed.
    func remove(_ channel: any Channel, from address: String) {
        state.withLock { state in
            guard state.channels.removeValue(forKey: ObjectIdentifier(channel)) != nil else { return }
            let left = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = left > 0 ? left : nil
        }
    }

    var all: [any Channel] { state.withLock { Array($0.channels.values) } }
    var count: Int { state.withLock { $0.channels.count } }
}
#endif
