import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 and a free port, for tests of the live API clients: it
/// records every request, answers with what the test's handler says (including slow, truncated
/// and never-ending answers), and notices when a client closes its connection.
///
/// Only loopback is ever used; nothing leaves the machine.
public final class LoopbackServer: @unchecked Sendable {
    // SAFETY: mutable state (`recorded`, `closedConnections`, `running`) lives in `state`, behind
    // its lock; the listening socket is set once in `init` and closed once in `stop()`.

    /// A request as the server received it.
    public struct Request: Sendable, CustomStringConvertible {
        public let method: String
        public let path: String
        /// Query items in the order sent, percent-decoded.
        public let queryItems: [URLQueryItem]
        /// Header names lowercased.
        public let headers: [String: String]

        /// The query as a dictionary (last value wins).
        public var query: [String: String] {
            var result: [String: String] = [:]
            for item in queryItems { result[item.name] = item.value ?? "" }
            return result
        }

        public var description: String {
            "\(method) \(path)?" + queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
    }

    /// How to answer.
    public indirect enum Reply: Sendable {
        /// A complete answer.
        case respond(status: Int, headers: [String: String] = [:], body: String)
        /// The same answer after a pause (a slow server).
        case delayed(milliseconds: Int, Reply)
        /// Headers announcing `declaredLength` bytes, then only `body`, then the connection closes.
        case truncated(status: Int, declaredLength: Int, body: String)
        /// Never answers; waits for the client to close the connection.
        case hang

        public static func json(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> Reply {
            .respond(status: status, headers: ["Content-Type": "application/json"].merging(headers) { $1 }, body: body)
        }
    }

    private struct State {
        var recorded: [Request] = []
        var closedConnections = 0
        var running = true
    }

    private let state = NSLock()
    private var shared = State()
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    /// The port the server listens on.
    public let port: Int

    /// Starts the server; `handler` decides each answer.
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ServerError("socket() failed: \(errno)") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw ServerError("bind/listen on 127.0.0.1 failed: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, in order.
    public var requests: [Request] {
        state.lock()
        defer { state.unlock() }
        return shared.recorded
    }

    /// How many connections the clients closed while the server was waiting (`.hang`).
    public var closedConnections: Int {
        state.lock()
        defer { state.unlock() }
        return shared.closedConnections
    }

    /// Waits (up to `timeout`) until `condition` holds; for the server's view of the clients.
    /// It returns as soon as it holds: the long default only matters on a loaded machine.
    public func wait(timeout: Duration = .seconds(30), until condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout.components.seconds) * 1_000_000_000
            + UInt64(timeout.components.attoseconds / 1_000_000_000)
        while !condition() {
            if DispatchTime.now().uptimeNanoseconds > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Stops listening.
    public func stop() {
        state.lock()
        let wasRunning = shared.running
        shared.running = false
        state.unlock()
        if wasRunning {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private var isRunning: Bool {
        state.lock()
        defer { state.unlock() }
        return shared.running
    }

    private func acceptLoop() {
        while isRunning {
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            // A thread of its own, not Dispatch's pool: a `.hang` keeps its thread until the
            // client closes, and the pool's threads are as many as the cores, shared with the
            // tests' own tasks (a request waiting for one outlived a client's 1 s timeout).
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        state.lock()
        shared.recorded.append(request)
        state.unlock()
        answer(handler(request), on: connection)
    }

    private func answer(_ reply: Reply, on connection: Int32) {
        switch reply {
        case .respond(let status, let headers, let body):
            let bytes = Array(body.utf8)
            write(head(status: status, headers: headers, length: bytes.count) + bytes, to: connection)
        case .delayed(let milliseconds, let reply):
            usleep(useconds_t(milliseconds * 1_000))
            answer(reply, on: connection)
        case .truncated(let status, let declaredLength, let body):
            write(head(status: status, headers: ["Content-Type": "application/json"], length: declaredLength) + Array(body.utf8), to: connection)
        case .hang:
            waitForClose(connection)
        }
    }

    private func head(status: Int, headers: [String: String], length: Int) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }

    private func write(_ bytes: [UInt8], to connection: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                send(connection, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                send(connection, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    private func waitForClose(_ connection: Int32) {
        var byte: UInt8 = 0
        while isRunning {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready > 0 {
                let count = recv(connection, &byte, 1, 0)
                if count <= 0 {
                    state.lock()
                    shared.closedConnections += 1
                    state.unlock()
                    return
                }
            }
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !data.containsHeaderEnd {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data += buffer[0..<count]
            if data.count > 65_536 { return nil }
        }
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let target = String(parts[1])
        let components = URLComponents(string: "http://127.0.0.1" + target)
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where line.contains(":") {
            let pair = line.split(separator: ":", maxSplits: 1)
            headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(parts[0]), path: components?.path ?? target, queryItems: Self.formDecoded(components?.percentEncodedQuery), headers: headers)
    }

    /// Decodes a query as servers do (`application/x-www-form-urlencoded`): `+` is a space,
    /// then percent-escapes are decoded. (`URLComponents.queryItems` keeps `+`, which would
    /// hide a client that sends `+` unencoded.)
    static func formDecoded(_ query: String?) -> [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
