#if WebServer
import Foundation
import WebUI

/// A request as a route sees it: the method, the address, the headers.
public struct WebRequest: Sendable {
    /// `GET`, `HEAD`, `POST`...
    public var method: String
    /// The path and query, decoded (`nil` when the browser's address could not be read).
    public var location: WebLocation?
    /// The headers, by lower-cased name (the first of a repeated one; every `Cookie` header joined
    /// with "; ", as HTTP/2 allows them split).
    public var headers: [String: String]
    /// The body (empty for GET; at most ``WebAppServer/Limits/requestBodyBytes``).
    public var body: Data
    /// The client's address: the connection's, or behind a trusted proxy the one it forwarded
    /// (see ``WebAppServer/Deployment``).
    public var clientAddress: String
    /// `http`, or `https` when a trusted proxy says the client used TLS.
    public var scheme: String

    public init(method: String, location: WebLocation?, headers: [String: String] = [:], body: Data = Data(),
                clientAddress: String = "", scheme: String = "http") {
        self.method = method
        self.location = location
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.clientAddress = clientAddress
        self.scheme = scheme
    }

    /// The query item `name`'s first value.
    public subscript(query name: String) -> String? { location?[name] }
}

/// A route's answer.
public struct WebResponse: Sendable {
    public var status: Int
    /// Extra headers (the server adds its security headers and the length).
    public var headers: [String: String]
    public var body: Data
    /// Each a `Set-Cookie` header's value (a response may set several cookies).
    public var cookies: [String] = []

    public init(status: Int = 200, contentType: String, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers.merging(["Content-Type": contentType]) { mine, _ in mine }
        self.body = body
    }

    /// Plain text.
    public static func text(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data(text.utf8))
    }

    /// An HTML page.
    public static func html(_ html: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "text/html; charset=utf-8", headers: ["Cache-Control": "no-store"], body: Data(html.utf8))
    }

    /// JSON text.
    public static func json(_ json: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "application/json", headers: ["Cache-Control": "no-store"], body: Data(json.utf8))
    }
}

/// A response as sent: the security headers every one carries, and its bytes.
extension WebAppServer {
    /// What every response carries (OWASP's secure headers): only this server's own script,
    /// styles and connections; no framing by another site; no type sniffing; no address sent to
    /// other sites.
    static let securityHeaders: [String: String] = [
        "Content-Security-Policy": "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    ]

    /// The response as sent: the security headers added; for HEAD, the length of the body
    /// without the body.
    static func finish(_ response: WebResponse, head: Bool, keepAlive: Bool) -> Data {
        let headers = securityHeaders.merging(response.headers, uniquingKeysWith: { _, mine in mine }).sorted { $0.key < $1.key }
        let cookies = response.cookies.map { ("Set-Cookie", $0) }
        return encodeResponse(status: response.status, headers: headers.map { ($0.key, $0.value) } + cookies, body: head ? Data() : response.body,
                              bodyLength: response.body.count, keepAlive: keepAlive)
    }

    /// A refused request's answer: its status, why, and the connection closed.
    static func refusal(_ refusal: HTTPRefusal) -> Data {
        finish(.text(refusal.reason + "\n", status: refusal.status), head: false, keepAlive: false)
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
#endif
