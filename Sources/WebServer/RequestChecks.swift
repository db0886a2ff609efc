#if WebServer
import Foundation
import WebUI

/// Who may ask what: the host names a request may use, a WebSocket's origin, a token compared in
/// constant time (the threats are in ``WebAppServer``'s overview).
extension WebAppServer {
    /// The names a server listening on `host` answers to: loopback's names on loopback, the
    /// address itself otherwise, any name on every address.
    static func allowedHosts(listeningOn host: String) -> Set<String>? {
        let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]
        if host == "0.0.0.0" || host == "::" { return nil }
        if loopback.contains(host) || host.hasPrefix("127.") { return loopback.union([host]) }
        return loopback.union([host.lowercased()])
    }

    /// The host name of a `Host` header or a URL authority, without the port or IPv6 brackets.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end]).lowercased()
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }

    static func isAllowedHost(_ request: RequestHead, _ allowed: Set<String>?) -> Bool {
        guard let allowed else { return true }
        guard let host = request["host"] else { return false }
        return allowed.contains(hostName(host))
    }

    /// Whether `given` is `expected`, in a time that does not depend on where they differ.
    static func sameToken(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }

    /// A browser sends the page's origin, once; it must name the host (and port) the page came
    /// from. Two Origins (no browser sends them) are refused, whichever matches.
    static func isSameOrigin(_ request: RequestHead) -> Bool {
        guard request.values("origin").count == 1, let origin = request["origin"], let host = request["host"] else { return false }
        guard let schemeEnd = origin.range(of: "://") else { return false }
        return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()
    }
}
#endif
