import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Signals

/// One GET request.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    /// How long the request may wait for an answer before failing with ``HTTPFailure/timeout``.
    public var timeout: Duration

    public init(url: URL, headers: [String: String] = [:], timeout: Duration = .seconds(15)) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }
}

/// What the server answered.
public struct HTTPResponse: Sendable, Equatable {
    public let status: Int
    /// Header names lowercased.
    public let headers: [String: String]
    public let body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Whether the body parses as JSON (whatever the `Content-Type` says).
    public var isJSON: Bool {
        (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil
    }

    /// Whether the `Content-Type` says JSON (`application/json`, `text/json`, `…+json`).
    public var declaresJSON: Bool {
        headers["content-type"]?.lowercased().contains("json") ?? false
    }

    /// What a body that is not JSON looks like, for messages: "an HTML page", "an empty body",
    /// or its content type ("text/plain, 12 bytes").
    public var kindOfBody: String {
        if body.isEmpty { return "an empty body" }
        let type = headers["content-type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "no content type"
        let start = String(decoding: body.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if type == "text/html" || start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { return "an HTML page" }
        return "\(type), \(body.count) bytes"
    }

    /// The `Retry-After` header as a human phrase ("30 s", or the date it names), if present.
    public var retryAfter: String? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return "\(seconds) s" }
        return value
    }
}

/// Why a request got no answer.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the request's timeout.
    case timeout
    /// The host could not be reached (no network, connection refused, DNS).
    case unreachable(String)
    /// The server answered, but the connection closed before the whole answer arrived (a
    /// truncated body): the server was reached, so this is not ``unreachable(_:)``.
    case interrupted(String)
    /// Another transport problem (a malformed answer).
    case transport(String)

    public var description: String {
        switch self {
        case .timeout: return "the request timed out"
        case .unreachable(let detail): return "the server could not be reached (\(detail))"
        case .interrupted(let detail): return "the answer was cut off (\(detail))"
        case .transport(let detail): return detail
        }
    }
}

/// Makes GET requests as cold streams over URLSession (FoundationNetworking on Linux): each
/// subscription is one request, disposing it cancels the request (closing its connection), and
/// the answer arrives on a URLSession thread.
public final class HTTPClient: Sendable {
    private let session: URLSession

    /// A client with its own ephemeral session (no cache, no cookies).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// The GET request as a stream: one ``HTTPResponse`` (whatever its status) then completion,
    /// or an ``HTTPFailure``.
    public func get(_ request: HTTPRequest) -> Signal<HTTPResponse, HTTPFailure> {
        let session = self.session
        return Signal { observer in
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = "GET"
            urlRequest.timeoutInterval = Self.seconds(request.timeout)
            urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            let task = session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    guard var failure = Self.failure(for: error) else { return }
                    // An answer had begun (its status arrived): the server was reached.
                    if case .unreachable(let detail) = failure, response is HTTPURLResponse { failure = .interrupted(detail) }
                    if case .transport(let detail) = failure, response is HTTPURLResponse { failure = .interrupted(detail) }
                    observer.sendFailed(failure)
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    observer.sendFailed(.transport("the answer was not HTTP"))
                    return
                }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    headers[String(describing: name).lowercased()] = String(describing: value)
                }
                let body = data ?? Data()
                // A body shorter than announced was cut off (only checkable when not compressed:
                // the length of a gzip answer is that of the compressed bytes).
                let encoding = headers["content-encoding"]?.lowercased() ?? "identity"
                if encoding == "identity", let declared = headers["content-length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), body.count < declared {
                    observer.sendFailed(.interrupted("\(body.count) of \(declared) bytes arrived"))
                    return
                }
                observer.send(HTTPResponse(status: http.statusCode, headers: headers, body: body))
                observer.sendCompleted()
            }
            task.resume()
            return AnyDisposable { task.cancel() }
        }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Maps URLSession's errors; `nil` for a cancellation (the subscription was disposed).
    static func failure(for error: any Error) -> HTTPFailure? {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return .transport(error.localizedDescription) }
        switch nsError.code {
        case NSURLErrorCancelled:
            return nil
        case NSURLErrorTimedOut:
            return .timeout
        case NSURLErrorNotConnectedToInternet, NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost,
             NSURLErrorDNSLookupFailed, NSURLErrorInternationalRoamingOff:
            return .unreachable(nsError.localizedDescription)
        case NSURLErrorNetworkConnectionLost:
            return .interrupted("the connection closed before the whole answer arrived")
        default:
            // libcurl (FoundationNetworking) reports a body cut short as an unknown error.
            if nsError.localizedDescription.hasPrefix("transfer closed with") { return .interrupted(nsError.localizedDescription) }
            return .transport(nsError.localizedDescription)
        }
    }
}


/// Decodes a JSON body; on failure, says which field was wrong ("missing field 'photos.photo'",
/// "the body is not valid JSON"), for an API's own decoding error.
public func decodeJSON<Body: Decodable>(_ type: Body.Type, from body: Data) -> Result<Body, JSONDecodingFailure> {
    do {
        return .success(try JSONDecoder().decode(Body.self, from: body))
    } catch let error as DecodingError {
        return .failure(JSONDecodingFailure(message: describe(error)))
    } catch {
        return .failure(JSONDecodingFailure(message: "\(error)"))
    }
}

/// A body that was not the JSON expected; `message` names the field.
public struct JSONDecodingFailure: Error, Equatable, Sendable {
    public let message: String
}

/// Where a JSON decoding error happened, as a readable path ("photos.total").
public func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }
    switch error {
    case .keyNotFound(let key, let context):
        let parent = path(context.codingPath)
        return "missing field '\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return "unexpected value at '\(path(context.codingPath))': \(context.debugDescription)"
    case .dataCorrupted(let context):
        let at = path(context.codingPath)
        return at.isEmpty ? "the body is not valid JSON" : "invalid value at '\(at)': \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}

/// A query string encoded the way servers decode it (`application/x-www-form-urlencoded`):
/// only letters, digits and `-._~` stay as they are; everything else, `+`, `&`, `=`, `#` and
/// space included, is percent-encoded (UTF-8). `URLComponents.queryItems` leaves `+` as it is,
/// which servers read as a space, so `c++` would arrive as `c  `.
public func formEncodedQuery(_ items: [(String, String)]) -> String {
    items.map { "\(formEncoded($0.0))=\(formEncoded($0.1))" }.joined(separator: "&")
}

private let hex = Array("0123456789ABCDEF".unicodeScalars)

/// One name or value of ``formEncodedQuery(_:)``.
public func formEncoded(_ text: String) -> String {
    var encoded = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            encoded.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            encoded.unicodeScalars.append("%")
            encoded.unicodeScalars.append(hex[Int(byte >> 4)])
            encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
        }
    }
    return encoded
}
