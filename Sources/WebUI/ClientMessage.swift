/// What the browser said about an element.
public enum ClientEvent: Sendable, Equatable {
    /// A text field's whole new value.
    case input(String)
    /// A click (or Enter/Space on a focused control).
    case click
    /// Enter in a text field.
    case submit
    /// The rows of a list now on screen (indices, first through last).
    case visible(ClosedRange<Int>)
    /// The end of a list came into view.
    case reachedEnd
    /// A `change` on an element that asked for it: its value (a custom element's or a select's
    /// `value`; a checkbox's `"true"` or `"false"`).
    case change(String)
    /// A key pressed on an element that asked for it: the key's name (`"Enter"`, `"Escape"`,
    /// `"a"`, `" "`).
    case key(String)
    /// A file the person chose in a file input, offered before any of its bytes: the page's
    /// number for it, its name and its size in bytes, as the browser said them.
    case offer(file: Int, name: String, size: Int)
}

/// A message from the browser, checked. Everything from the page is untrusted: a message that is
/// too big, not JSON, of an unknown kind, or missing what its kind needs is a
/// ``ClientMessageError`` saying why, never a crash.
public enum ClientMessage: Sendable, Equatable {
    /// The first message on a connection: the session it is for, the last frame the page
    /// applied (`nil` on a fresh page), and the page's address (so that a page whose session is
    /// gone, after a restart, gets a new one there).
    case hello(session: String, lastFrame: Int?, address: String?)
    /// An event for an element; `sequence` is the page's count of its own messages, echoed back
    /// as the acknowledgement.
    case event(id: String, ClientEvent, sequence: Int?)
    /// The browser went back in its history to `depth` screens.
    case back(depth: Int, sequence: Int?)
    /// The browser moved in its history (forward, or to an entry the server did not make) to
    /// `address`, `depth` screens deep: show the screen for it.
    case navigate(depth: Int, address: String, sequence: Int?)
    /// The tab is closing: dispose the session now.
    case bye
    /// The page has applied every frame up to this one (a page with nothing else to send says
    /// so a second after frames stop; every other message says it in its `q`): the session
    /// forgets them instead of keeping them to send again after a reconnect.
    case framesSeen(Int)

    /// The message's own number (`n`), for the kinds that carry one.
    public var sequence: Int? {
        switch self {
        case .event(_, _, let sequence), .back(_, let sequence), .navigate(_, _, let sequence): sequence
        case .hello, .bye, .framesSeen: nil
        }
    }

    /// The largest message accepted, in bytes, before the server's limit was the only one.
    @available(*, deprecated, message: "A message's size is limited once, by its transport: WebAppServer.Limits.messageBytes (64 KB by default), checked from each frame's header")
    public static let maximumSize = 64 * 1024
    /// The longest text value accepted, in characters.
    public static let maximumValueLength = 10_000

    /// A message's fields, as the page writes them: its kind `t`, and what that kind needs.
    struct Wire {
        var t: String
        var s: String?
        var id: String?
        var v: String?
        var n: Int?
        var q: Int?
        var f: Int?
        var l: Int?
        var d: Int?
        var p: String?

        /// The fields of a JSON object with a string `t`, each other one absent, `null` or of its
        /// type; `nil` otherwise.
        init?(_ text: String) {
            guard var object = MessageObject(text), case let t?? = object.string("t"),
                  let s = object.string("s"), let id = object.string("id"), let v = object.string("v"),
                  let p = object.string("p"), let n = object.integer("n"), let q = object.integer("q"),
                  let f = object.integer("f"), let l = object.integer("l"), let d = object.integer("d") else { return nil }
            (self.t, self.s, self.id, self.v, self.p) = (t, s, id, v, p)
            (self.n, self.q, self.f, self.l, self.d) = (n, q, f, l, d)
        }
    }

    /// The message's own number (`n`), if it is a JSON object with one. (Its size was limited by
    /// its transport: the server's `Limits.messageBytes`.)
    public static func sequenceNumber(in text: String) -> Int? {
        guard var object = MessageObject(text), let n = object.integer("n") else { return nil }
        return n.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Parses and checks a message; `session` is the connection's session (a message naming
    /// another is refused). Its size is its transport's to limit (the server's
    /// `Limits.messageBytes`): a larger limit configured there is not overridden here.
    public static func parse(_ text: String, session: String? = nil) throws(ClientMessageError) -> ClientMessage {
        var framesSeen: Int?
        return try parse(text, session: session, framesSeen: &framesSeen)
    }

    /// `parse(_:session:)`, also giving the last frame the page says it applied (any message's
    /// `q` but a hello's, whose `q` is its `lastFrame`).
    static func parse(_ text: String, session: String?, framesSeen: inout Int?) throws(ClientMessageError) -> ClientMessage {
        guard let wire = Wire(text) else { throw .malformed("not a JSON object with a string \"t\"") }
        if let session, let named = wire.s, named != session { throw .otherSession }
        if let n = wire.n, n < 0 { throw .malformed("negative sequence number") }
        if let q = wire.q, q < 0 { throw .malformed("negative frame number") }
        if wire.t != "hello" { framesSeen = wire.q }
        switch wire.t {
        case "hello":
            guard let s = wire.s, !s.isEmpty, s.count <= 64 else { throw .malformed("hello without a session id") }
            if let p = wire.p, p.utf8.count > 2048 { throw .malformed("an address over 2,048 bytes") }
            return .hello(session: s, lastFrame: wire.q, address: wire.p)
        case "bye":
            return .bye
        case "a":
            guard let q = wire.q else { throw .malformed("frames seen without a frame number") }
            return .framesSeen(q)
        case "b":
            guard let depth = wire.d, depth >= 1 else { throw .malformed("back without a depth ≥ 1") }
            return .back(depth: depth, sequence: wire.n)
        case "u":
            guard let depth = wire.d, depth >= 1 else { throw .malformed("navigation without a depth ≥ 1") }
            guard let address = wire.p, WebLocation(address) != nil else { throw .malformed("navigation without an address") }
            return .navigate(depth: depth, address: address, sequence: wire.n)
        case "i", "c", "s", "v", "e", "g", "k", "f":
            guard let id = wire.id, !id.isEmpty, id.count <= 32 else { throw .malformed("\"\(wire.t)\" without an element id") }
            let event: ClientEvent
            switch wire.t {
            case "i":
                guard let value = wire.v else { throw .malformed("input without a value") }
                guard value.count <= maximumValueLength else { throw .malformed("input value longer than \(maximumValueLength) characters") }
                event = .input(value)
            case "g":
                guard let value = wire.v else { throw .malformed("change without a value") }
                guard value.count <= maximumValueLength else { throw .malformed("change value longer than \(maximumValueLength) characters") }
                event = .change(value)
            case "k":
                guard let key = wire.v, !key.isEmpty, key.count <= 32 else { throw .malformed("key press without a key name of 1 to 32 characters") }
                event = .key(key)
            case "f":
                guard let file = wire.f, file >= 0, let size = wire.l, size >= 0, let name = wire.p, name.utf8.count <= 1024 else {
                    throw .malformed("a file offer without a number, a size ≥ 0 and a name of at most 1,024 bytes")
                }
                event = .offer(file: file, name: name, size: size)
            case "c": event = .click
            case "s": event = .submit
            case "v":
                guard let first = wire.f, let last = wire.l, first >= 0, last >= first else { throw .malformed("visible rows without 0 ≤ f ≤ l") }
                event = .visible(first...last)
            default: event = .reachedEnd
            }
            return .event(id: id, event, sequence: wire.n)
        default:
            throw .malformed("unknown message kind \(JSON.string(String(wire.t.prefix(20))))")
        }
    }
}

/// Why a message from the browser was refused.
public enum ClientMessageError: Error, Equatable, CustomStringConvertible {
    /// No longer thrown: a message's size is limited by its transport (the server's
    /// `Limits.messageBytes`, refused from the frame's header with close code 1009).
    case tooLarge(Int)
    case malformed(String)
    case otherSession
    case unknownElement(String)
    case notHandled(String, ClientEvent)
    case unknownSession
    /// A message numbered past the next one the page can send (its number, and the highest seen).
    case numberedAhead(Int, after: Int)
    /// The connection does not come from the browser that opened the session.
    case otherBrowser

    public var description: String {
        switch self {
        case .tooLarge(let size): return "message of \(size) bytes is over its limit"
        case .malformed(let why): return "malformed message: \(why)"
        case .otherSession: return "message names another session than its connection's"
        case .unknownElement(let id): return "no element \(JSON.string(String(id.prefix(32)))) on this page"
        case .notHandled(let id, let event): return "element \(id) does not take \(event)"
        case .unknownSession: return "unknown or expired session"
        case .numberedAhead(let number, let highest): return "message numbered \(number), but the page's last was \(highest)"
        case .otherBrowser: return "the session belongs to another browser (its cookie is missing or another)"
        }
    }
}
