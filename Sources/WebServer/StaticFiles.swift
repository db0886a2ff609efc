#if WebServer
import Foundation
import WebUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension WebAppServer {
    /// Serves the files of `folder` under `prefix` (`"/static"`: `folder/css/app.css` is
    /// `/static/css/app.css`), for GET and HEAD, as nginx's `location` + `root` would: each with
    /// its type (by extension), an `ETag` and a `Last-Modified`, and a `304 Not Modified` when
    /// the browser's copy is current (`If-None-Match`, else `If-Modified-Since`).
    ///
    /// `cacheControl` is sent with each file: `no-cache` (the default) has the browser ask each
    /// time and get a 304 while the file is unchanged; `public, max-age=31536000, immutable`
    /// suits files whose names change with their content.
    ///
    /// Only regular files inside `folder` are served: no directory listing, no file or folder
    /// whose name starts with a dot, no `..`, and no symbolic link that leads outside the
    /// folder. Anything else is a 404. A file is read whole when asked for; one larger than
    /// `maximumBytes` is refused (a 404, logged), so a stray large file cannot hold a thread.
    public func serveFiles(in folder: String, at prefix: String = "/static", cacheControl: String = "no-cache", maximumBytes: Int = 32 << 20) {
        let root = StaticFiles.realPath(folder) ?? folder
        let prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        let log = refusals
        route(prefix + "/*") { request in
            let path = request.location?.path ?? ""
            guard path.hasPrefix(prefix + "/"),
                  let file = StaticFiles.file(String(path.dropFirst(prefix.count + 1)), in: root) else {
                return .text("There is no file at this address.", status: 404)
            }
            guard file.size <= maximumBytes else {
                log("refused to serve \(path): \(file.size) bytes, over the \(maximumBytes) a file may have")
                return .text("There is no file at this address.", status: 404)
            }
            return StaticFiles.response(for: file, request: request, cacheControl: cacheControl)
        }
    }
}

/// Serving a folder's files: finding one safely, its validators, and the conditional answer.
enum StaticFiles {
    struct File {
        let path: String
        let size: Int
        /// Seconds since 1970 (whole: HTTP dates have no fractions).
        let modified: Int
    }

    /// The real path of `path`, symbolic links resolved, or `nil` if it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The regular file `relative` names inside `root` (a real path), or `nil`: an empty, `.`
    /// or `..` segment, a hidden name, a link leading outside, a directory, nothing there.
    static func file(_ relative: String, in root: String) -> File? {
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") && !$0.contains("\\") }),
              let real = realPath(root + "/" + segments.joined(separator: "/")), real.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = Int(info.st_mtimespec.tv_sec)
        #else
        let modified = Int(info.st_mtim.tv_sec)
        #endif
        return File(path: real, size: Int(info.st_size), modified: modified)
    }

    /// The validator nginx sends: the modification time and the size, in hex.
    static func etag(_ file: File) -> String {
        "\"" + String(file.modified, radix: 16) + "-" + String(file.size, radix: 16) + "\""
    }

    static func response(for file: File, request: WebRequest, cacheControl: String) -> WebResponse {
        let tag = etag(file)
        let headers = ["ETag": tag, "Last-Modified": httpDate(file.modified), "Cache-Control": cacheControl]
        if isCurrent(request, etag: tag, modified: file.modified) {
            return WebResponse(status: 304, contentType: contentType(of: file.path), headers: headers, body: Data())
        }
        guard let body = FileManager.default.contents(atPath: file.path) else { return .text("There is no file at this address.", status: 404) }
        return WebResponse(contentType: contentType(of: file.path), headers: headers, body: body)
    }

    /// Whether the browser's copy is current: `If-None-Match` names this validator (or `*`;
    /// a weak `W/` one matches too, as RFC 9110 compares for GET), or, without that header,
    /// `If-Modified-Since` is not before the file's time.
    static func isCurrent(_ request: WebRequest, etag: String, modified: Int?) -> Bool {
        if let match = request.headers["if-none-match"] {
            return match.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == etag || tag == "W/" + etag
            }
        }
        if let modified, let since = request.headers["if-modified-since"], let date = parseHTTPDate(since) {
            return modified <= date
        }
        return false
    }

    /// A validator for content that is built into the server (the page's script and stylesheet):
    /// a hash of it (FNV-1a, 64 bits), the same in every process of the same build.
    static func contentTag(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "\""
    }

    /// A response with built-in content, or a 304 when the browser's copy has its validator.
    static func builtIn(_ text: String, tag: String, contentType: String, request: WebRequest) -> WebResponse {
        let headers = ["ETag": tag, "Cache-Control": "no-cache"]
        if isCurrent(request, etag: tag, modified: nil) {
            return WebResponse(status: 304, contentType: contentType, headers: headers, body: Data())
        }
        return WebResponse(contentType: contentType, headers: headers, body: Data(text.utf8))
    }

    static let scriptTag = contentTag(PageShell.script)
    static let stylesheetTag = contentTag(PageShell.stylesheet)

    /// An HTTP date (RFC 9110's IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The seconds an IMF-fixdate names, or `nil` for anything else (an obsolete format is
    /// treated as no date: the file is sent).
    static func parseHTTPDate(_ text: String) -> Int? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), parts[1].count == 2, let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), parts[3].count == 4 else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var parts2 = tm()
        parts2.tm_year = Int32(year - 1900)
        parts2.tm_mon = Int32(month)
        parts2.tm_mday = Int32(day)
        parts2.tm_hour = Int32(hour)
        parts2.tm_min = Int32(minute)
        parts2.tm_sec = Int32(second)
        return Int(timegm(&parts2))
    }

    /// The type of a file by its extension; `application/octet-stream` when unknown.
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        return types[ext] ?? "application/octet-stream"
    }

    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json", "map": "application/json", "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "avif": "image/avif", "ico": "image/x-icon", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "pdf": "application/pdf", "xml": "application/xml", "webmanifest": "application/manifest+json",
        "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "wav": "audio/wav",
    ]
}
#endif
