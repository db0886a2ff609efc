// The tabs benchmark's client in Swift on SwiftNIO (issue 41): the same tabs as
// Web/EndToEnd/tabs_bench.py's Python client (GET /, the WebSocket with the page's cookie, the
// hello, a click into Flickr search for the showcase; each keystroke then waits for its
// acknowledgement), at a few microseconds of CPU a message instead of Python's tens, so that
// 15,000 tabs typing once a second can be asked of a server on the same two cores.
//
//     TabsClient PORT COUNT showcase|todo|todo-search|echo
// (todo-search types into todo-web's search field instead of its "New to-do" field.)
//
// tabs_bench.py (`--client PATH`) drives it over stdin and stdout, one line each way:
//     open                          -> opened OPENED FAILED
//     type RATE SECONDS START_AT    -> typed EDITS LOST MS MS MS…   (each keystroke's round trip)
//     close                         -> closed
// START_AT is a Unix time (seconds); RATE 0 types each tab's next key as soon as the last is
// acknowledged.
import Foundation
import NIOCore
import NIOPosix

/// The command line, and the client's one event loop (one thread: the client must leave the
/// server the other core).
enum Options {
    static let arguments = CommandLine.arguments
    static let isValid = arguments.count == 4 && Int(arguments[1]) != nil && Int(arguments[2]) != nil
        && ["showcase", "todo", "todo-search", "echo"].contains(arguments[3])
    static let port = Int(arguments[1]) ?? 0
    static let count = Int(arguments[2]) ?? 0
    static let kind = arguments[3]
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static let loop = group.next()
}
guard Options.isValid else {
    FileHandle.standardError.write("usage: TabsClient PORT COUNT showcase|todo|todo-search|echo\n".data(using: .utf8)!)
    exit(2)
}
let port = Options.port
let debug = ProcessInfo.processInfo.environment["TABS_CLIENT_DEBUG"] != nil
let kind = Options.kind

/// Tabs come from many loopback addresses (50 each), as in tabs_bench.py.
@Sendable func sourceAddress(_ index: Int) -> String {
    let block = index / 50
    return "127.\(10 + block / 250).\(block % 250).1"
}

@Sendable func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The first decimal number after `"key":` in `bytes`, if any (`key` one byte, as the page's
/// frames name their fields: `"a":12`, `"s":7`). A plain scan: the client reads one or two
/// frames a keystroke, and a generic search (Foundation's `firstRange(of:)`) cost it more CPU a
/// keystroke for the showcase than for the echo, on a thread that is near a core's worth.
@Sendable func decimal(after key: UInt8, in bytes: ArraySlice<UInt8>) -> Int? {
    var i = bytes.startIndex
    let end = bytes.endIndex
    while i + 4 <= end {
        if bytes[i] == 0x22, bytes[i + 1] == key, bytes[i + 2] == 0x22, bytes[i + 3] == 0x3A {
            var value = 0, any = false
            var j = i + 4
            while j < end, bytes[j] >= 48, bytes[j] <= 57 {
                value = value * 10 + Int(bytes[j] - 48)
                any = true
                j += 1
            }
            return any ? value : nil
        }
        i += 1
    }
    return nil
}

/// A connection's bytes: raw HTTP before the upgrade, then WebSocket text frames.
final class Connection: ChannelInboundHandler, @unchecked Sendable {
    // SAFETY: every field is used on the connection's event loop only (the client's one loop).
    typealias InboundIn = ByteBuffer
    var buffer: [UInt8] = []
    var closed = false
    /// Called on every read, and once when the connection closes.
    var onData: (() -> Void)?
    var channel: Channel?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        buffer += bytes.readBytes(length: bytes.readableBytes) ?? []
        if let onData { onData() } else if upgraded { answerPings() }
    }

    /// The pong for a ping: its payload back (RFC 6455 §5.5.3; Hummingbird ignores a pong that
    /// does not match, and closes the connection a ping period later), masked with zeros.
    func pong(_ payload: ArraySlice<UInt8>) {
        guard payload.count <= 125 else { return }  // a control frame's most (RFC 6455 §5.5): a broken ping is not answered
        write([0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload)
    }

    /// The connection is a WebSocket (its frames follow).
    var upgraded = false

    /// Answers the pings among the frames received while nobody waits, as a browser does at
    /// once: a tab idle past a server's ping would otherwise be closed as gone (Hummingbird's echo
    /// closes a connection that left a ping unanswered for 30 s). The other frames stay.
    func answerPings() {
        var kept: [UInt8] = []
        let end = walkFrames { opcode, payload, frame in
            if opcode == 9 { pong(payload) } else { kept += frame }
        }
        if end > 0 { buffer = kept + buffer[end...] }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        onData?()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func write(_ bytes: [UInt8]) {
        guard let channel else { return }
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    /// A masked text frame (a zero mask: the payload as it is; the mask bit set, as a client must).
    func sendText(_ text: String) {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += [0, 0, 0, 0]
        write(frame + payload)
    }

    /// The head of an HTTP response, once it is all there (taken out of the buffer).
    func takeHead() -> String? {
        guard let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        return head
    }

    /// The whole text frames received so far (taken out of the buffer); pings answered.
    func takeFrames() -> [ArraySlice<UInt8>] {
        var frames: [ArraySlice<UInt8>] = []
        let end = walkFrames { opcode, payload, _ in
            if opcode == 1 { frames.append(payload) }
            if opcode == 9 { pong(payload) }
        }
        if end > 0 { buffer.removeSubrange(..<end) }  // the slices keep the bytes they show
        return frames
    }

    /// Calls `each` with every whole frame at the buffer's start (its opcode, its payload, the
    /// whole frame), in order; returns where the first incomplete frame begins.
    private func walkFrames(_ each: (UInt8, ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) -> Int {
        var start = 0
        while buffer.count - start >= 2 {
            var length = Int(buffer[start + 1] & 0x7F), offset = 2
            if length == 126 {
                guard buffer.count - start >= 4 else { break }
                length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3]); offset = 4
            } else if length == 127 {
                guard buffer.count - start >= 10 else { break }
                length = buffer[(start + 2)..<(start + 10)].reduce(0) { $0 << 8 | Int($1) }; offset = 10
            }
            guard buffer.count - start >= offset + length else { break }
            each(buffer[start] & 0x0F, buffer[(start + offset)..<(start + offset + length)], buffer[start..<(start + offset + length)])
            start += offset + length
        }
        return start
    }
}

let loop = Options.loop

@Sendable func connect(from source: String) -> EventLoopFuture<Connection> {
    let connection = Connection()
    return ClientBootstrap(group: loop)
        .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        .bind(to: try! SocketAddress(ipAddress: source, port: 0))
        .channelInitializer { channel in
            // Closed with a reset, never left in TIME_WAIT, on either side (a server that closes
            // first, as after a page with `Connection: close`, gets the reset in FIN_WAIT and
            // ends there too): the kernel ends TIME_WAITs 60 s later in batches (its timers that
            // far out are seconds apart), and 15,000 page loads' batches fell on the typing
            // phase, which the echo (no pages) does not have.
            (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).flatMapThrowing {
                try channel.pipeline.syncOperations.addHandler(connection)
            } ?? channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(connection) }
        }
        .connect(host: "127.0.0.1", port: port)
        .map { channel in
            connection.channel = channel
            return connection
        }
}

struct TabError: Error { let why: String }

/// The 10 s a wait is given. Every wait gets the same time, so their deadlines come in the order
/// they were set: one queue, one timer for its head, and a wait that ends leaves its entry to be
/// skipped. (NIO's `Scheduled.cancel()` searches the loop's whole heap of scheduled tasks: with
/// 15,000 tabs each waiting to type, a timeout cancelled per keystroke scanned them all, on the
/// client's one thread, for every keystroke of either server.)
final class Timeouts: @unchecked Sendable {
    // SAFETY: used on the client's one event loop only.
    final class Wait {
        var ended = false
        let expire: () -> Void
        init(expire: @escaping () -> Void) { self.expire = expire }
    }
    static let after = 10.0
    private var queue: [(at: Double, wait: Wait)] = []
    private var head = 0
    private var armed = false

    /// `expire` runs in 10 s (up to 0.1 s later) unless the wait returned has ended by then.
    func start(_ expire: @escaping () -> Void) -> Wait {
        let wait = Wait(expire: expire)
        queue.append((now() + Self.after, wait))
        if !armed { arm(in: Self.after) }
        return wait
    }

    private func arm(in seconds: Double) {
        armed = true
        loop.scheduleTask(in: .nanoseconds(Int64(max(0.1, seconds) * 1e9))) { self.expireDue() }
    }

    private func expireDue() {
        armed = false
        let time = now()
        while head < queue.count && queue[head].at <= time {
            let wait = queue[head].wait
            head += 1
            if !wait.ended { wait.ended = true; wait.expire() }
        }
        if head > 4096 && head * 2 > queue.count { queue.removeFirst(head); head = 0 }
        if head < queue.count { arm(in: queue[head].at - time) }
    }
}
let timeouts = Timeouts()

/// One tab, on the client's event loop.
final class Tab: @unchecked Sendable {
    // SAFETY: used on the client's one event loop only.
    let index: Int
    var socket: Connection?
    var field = ""
    var frame = 0
    var number = 0
    var acknowledged = 0
    var text = ""

    init(index: Int) { self.index = index }

    /// Reads `connection` until `done` returns a value (or it closes: a failure).
    /// Gives up after 10 s (a message the server refused, over a session's rate, is never
    /// answered): the tab then stops, counted as lost, as the Python client's does.
    func wait<T: Sendable>(_ connection: Connection, _ done: @escaping () -> T?) -> EventLoopFuture<T> {
        let promise = loop.makePromise(of: T.self)
        let timeout = timeouts.start {
            connection.onData = nil
            promise.fail(TabError(why: "no answer in 10 s"))
        }
        let check = {
            if let value = done() {
                connection.onData = nil
                timeout.ended = true
                promise.succeed(value)
            } else if connection.closed {
                connection.onData = nil
                timeout.ended = true
                promise.fail(TabError(why: "closed"))
            }
        }
        connection.onData = check
        check()
        return promise.futureResult
    }

    func open() -> EventLoopFuture<Void> {
        let source = sourceAddress(index)
        if kind == "echo" {
            return upgrade(source: source, cookie: nil).map { self.socket = $0 }
        }
        return connect(from: source).flatMap { http in
            http.write(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
            return self.wait(http) { http.closed ? String(decoding: http.buffer, as: UTF8.self) : nil }
        }.flatMapThrowing { page -> (String, String?, String) in
            guard let session = page.firstMatch(of: /data-session="(\w+)"/)?.1 else { throw TabError(why: "no page: \(page.prefix(80))") }
            self.frame = Int(page.firstMatch(of: /data-frame="(\d+)"/)?.1 ?? "0") ?? 0
            let cookie = page.firstMatch(of: /(?i)\r\nset-cookie: *(mvvm_browser=[0-9a-f]+)/)?.1
            if kind != "showcase" {
                let fields = page.matches(of: /<input id="(e\d+)"/).map { String($0.1) }
                let wanted = kind == "todo-search" ? 1 : 0
                guard fields.count > wanted else { throw TabError(why: "no field") }
                self.field = fields[wanted]
                return (String(session), cookie.map(String.init), "")
            }
            guard let row = page.firstMatch(of: /<li id="(e\d+)"[^>]*><div[^>]*><(?:span|a)[^>]*class="title"[^>]*>Flickr search</)?.1 else { throw TabError(why: "no row") }
            return (String(session), cookie.map(String.init), String(row))
        }.flatMap { session, cookie, row in
            self.upgrade(source: source, cookie: cookie).flatMap { socket in
                self.socket = socket
                socket.sendText(#"{"t":"hello","s":"\#(session)","q":\#(self.frame)}"#)
                if kind != "showcase" { return loop.makeSucceededVoidFuture() }
                socket.sendText(#"{"t":"c","id":"\#(row)","n":1}"#)
                self.number = 1
                return self.wait(socket) { () -> Bool? in
                    for payload in socket.takeFrames() {
                        self.frame = max(self.frame, decimal(after: UInt8(ascii: "s"), in: payload) ?? 0)
                        if self.field.isEmpty, let match = String(decoding: payload, as: UTF8.self).firstMatch(of: /\\u003cinput id=\\"(e\d+)\\"/) {
                            self.field = String(match.1)
                        }
                    }
                    return self.field.isEmpty ? nil : true
                }.map { _ in
                    // As the page does a second after frames stop: it has them.
                    socket.sendText(#"{"t":"a","q":\#(self.frame)}"#)
                }
            }
        }
    }

    func upgrade(source: String, cookie: String?) -> EventLoopFuture<Connection> {
        connect(from: source).flatMap { socket in
            socket.write(Array(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + (cookie.map { "Cookie: \($0)\r\n" } ?? "") + "\r\n").utf8))
            return self.wait(socket) { socket.takeHead() }.flatMapThrowing { head in
                guard head.hasPrefix("HTTP/1.1 101") else { throw TabError(why: String(head.prefix(60))) }
                socket.upgraded = true
                return socket
            }
        }
    }

    /// Types one key (or clears the field); the seconds until it was acknowledged.
    func keystroke() -> EventLoopFuture<Double> {
        guard let socket else { return loop.makeFailedFuture(TabError(why: "not open")) }
        number += 1
        text = text.count < 20 ? text + "a" : ""
        let sent = number
        let started = now()
        if kind == "echo" {
            socket.sendText(#"{"t":"i","id":"e12","v":"aaaa","n":\#(sent)}"#)
            return wait(socket) { socket.takeFrames().isEmpty ? nil : now() - started }
        }
        socket.sendText(#"{"t":"i","id":"\#(field)","v":"\#(text)","n":\#(sent),"q":\#(frame)}"#)
        if debug { FileHandle.standardError.write("sent \(sent) field \(field) buffer \(socket.buffer.count) closed \(socket.closed)\n".data(using: .utf8)!) }
        return wait(socket) { () -> Double? in
            for payload in socket.takeFrames() {
                self.acknowledged = max(self.acknowledged, decimal(after: UInt8(ascii: "a"), in: payload) ?? 0)
                self.frame = max(self.frame, decimal(after: UInt8(ascii: "s"), in: payload) ?? 0)
            }
            return self.acknowledged >= sent ? now() - started : nil
        }
    }
}

let tabs = (0..<Options.count).map { Tab(index: $0) }

/// A run over every tab, counted on the client's loop.
final class Run: @unchecked Sendable {
    // SAFETY: every field is used on the client's one event loop only.
    var next = 0, running = 0, failed = 0
    var edits = 0, lost = 0, finished = 0
    var latencies: [Double] = []
}

/// Opens every tab (200 at a time), retrying a failure once after 200 ms.
func openAll() throws -> (opened: Int, failed: Int) {
    let run = Run()
    return try loop.flatSubmit { () -> EventLoopFuture<(opened: Int, failed: Int)> in
        let promise = loop.makePromise(of: (opened: Int, failed: Int).self)
        @Sendable func start() {
            while run.running < 200 && run.next < tabs.count {
                let tab = tabs[run.next]
                run.next += 1
                run.running += 1
                tab.open().flatMapError { _ in
                    loop.scheduleTask(in: .milliseconds(200)) {}.futureResult.flatMap { tab.open() }
                }.whenComplete { result in
                    if case .failure(let error) = result {
                        run.failed += 1
                        tab.socket = nil
                        if run.failed <= 3 { FileHandle.standardError.write("TabsClient: tab \(tab.index) not opened: \(error)\n".data(using: .utf8)!) }
                    }
                    run.running -= 1
                    if run.next == tabs.count && run.running == 0 {
                        promise.succeed((tabs.count - run.failed, run.failed))
                    } else {
                        start()
                    }
                }
            }
        }
        if tabs.isEmpty { promise.succeed((0, 0)) }
        start()
        return promise.futureResult
    }.wait()
}

/// The tabs' next keys by when they are due, and one timer for the earliest: on the client's
/// event loop only.
final class KeySchedule: @unchecked Sendable {
    // SAFETY: made and used on the client's one event loop only.
    private var heap: [(at: Double, tab: Tab)] = []
    private var timer: Scheduled<Void>?
    private var timerAt = Double.infinity
    /// Called with each tab when its key is due, and the time it was due.
    var type: (Tab, Double) -> Void = { _, _ in }

    func add(_ tab: Tab, at time: Double) {
        heap.append((time, tab))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { break }
            heap.swapAt(child, parent)
            child = parent
        }
        if time < timerAt { arm(at: time) }
    }

    private func arm(at time: Double) {
        timer?.cancel()
        timerAt = time
        timer = loop.scheduleTask(in: .nanoseconds(Int64(max(0, time - now()) * 1e9))) { self.fire() }
    }

    private func fire() {
        timer = nil
        timerAt = .infinity
        let time = now()
        while let first = heap.first, first.at <= time {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var least = parent
                    if left < heap.count, heap[left].at < heap[least].at { least = left }
                    if right < heap.count, heap[right].at < heap[least].at { least = right }
                    if least == parent { break }
                    heap.swapAt(parent, least)
                    parent = least
                }
            }
            type(first.tab, first.at)
        }
        if let first = heap.first, first.at < timerAt { arm(at: first.at) }
    }
}

/// Every open tab types: RATE keys a second each (spread over the second), or as fast as
/// acknowledged with RATE 0, from START_AT until START_AT + SECONDS.
func typeAll(rate: Double, seconds: Double, startAt: Double) throws -> (edits: Int, lost: Int, latencies: [Double]) {
    let startIn = max(0, startAt - Date().timeIntervalSince1970)
    let run = Run()
    return try loop.flatSubmit { () -> EventLoopFuture<(edits: Int, lost: Int, latencies: [Double])> in
        let open = tabs.filter { $0.socket != nil }
        // Not before every tab's first key is scheduled (15,000 take a few milliseconds): a START_AT
        // already past would otherwise make the first tabs' keys due at once, a burst that each
        // of those tabs then repeated every second.
        let start = now() + max(startIn, 0.2)
        let deadline = start + seconds
        run.latencies.reserveCapacity(Int(Double(open.count) * max(rate, 1) * seconds) + 16)
        let promise = loop.makePromise(of: (edits: Int, lost: Int, latencies: [Double]).self)
        @Sendable func done() {
            run.finished += 1
            if run.finished == open.count { promise.succeed((run.edits, run.lost, run.latencies)) }
        }
        // Every tab's next key in one schedule with one timer, not a scheduled task each: NIO
        // keeps scheduled tasks in a heap of closures, and with 15,000 tabs waiting to type its
        // sifting (a retain and a release a level) was the client's largest cost.
        let keys = KeySchedule()
        @Sendable func typeNext(_ tab: Tab, at time: Double) {
            guard time < deadline else { return done() }
            keys.add(tab, at: time)
        }
        keys.type = { tab, time in
            guard now() < deadline else { return done() }
            tab.keystroke().whenComplete { result in
                switch result {
                case .success(let latency):
                    run.edits += 1
                    run.latencies.append(latency)
                    // The next key a second after this one was due, not after it was sent:
                    // a moment's delay on the client does not bunch the tabs it delayed.
                    typeNext(tab, at: rate > 0 ? max(time + 1 / rate, now()) : now())
                case .failure:
                    run.lost += 1
                    done()
                }
            }
        }
        promise.futureResult.whenComplete { _ in keys.type = { _, _ in } }  // the cycle through typeNext, broken
        if open.isEmpty { promise.succeed((0, 0, [])) }
        for (i, tab) in open.enumerated() {
            typeNext(tab, at: start + (rate > 0 ? Double(i) / Double(open.count) / rate : 0))
        }
        return promise.futureResult
    }.wait()
}

/// One line to the driving script.
func say(_ line: String) {
    FileHandle.standardOutput.write((line + "\n").data(using: .utf8)!)
}

while let line = readLine() {
    let words = line.split(separator: " ")
    switch words.first {
    case "open":
        let (opened, failed) = try openAll()
        say("opened \(opened) \(failed)")
    case "type" where words.count == 4:
        let (edits, lost, latencies) = try typeAll(rate: Double(words[1])!, seconds: Double(words[2])!, startAt: Double(words[3])!)
        say("typed \(edits) \(lost) " + latencies.map { String(format: "%.3f", $0 * 1000) }.joined(separator: " "))
    case "close":
        // Each a reset (SO_LINGER 0, set when it was opened): none is left in TIME_WAIT to end
        // during the next run.
        try? loop.submit { for tab in tabs { tab.socket?.channel?.close(promise: nil) } }.wait()
        say("closed")
        exit(0)
    default:
        say("unknown command")
    }
}
