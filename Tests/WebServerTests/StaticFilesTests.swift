// Issue 43: a folder of static files served in one call, with ETag and Last-Modified, and
// nothing outside the folder, hidden, or not a regular file.
#if WebServer
import Foundation
import Testing
@testable import WebServer
@testable import WebUI

@Suite(.serialized) struct StaticFilesTests {
    /// A folder: two files, a hidden one, a hidden folder, a link inside and one leading out,
    /// and a file beside the folder that `..` would reach.
    static func folder() throws -> (root: String, outside: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)").path
        let root = base + "/public"
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try Data("body { color: red }".utf8).write(to: URL(fileURLWithPath: root + "/css/app.css"))
        try Data("<svg/>".utf8).write(to: URL(fileURLWithPath: root + "/logo.svg"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: root + "/.env"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: root + "/.git/config"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/outside.txt"))
        try files.createSymbolicLink(atPath: root + "/same.css", withDestinationPath: root + "/css/app.css")
        try files.createSymbolicLink(atPath: root + "/out.txt", withDestinationPath: base + "/outside.txt")
        try files.createSymbolicLink(atPath: root + "/up", withDestinationPath: base)
        return (StaticFiles.realPath(root)!, base)
    }

    @Test func onlyRegularFilesInsideTheFolderAreFound() throws {
        let (root, _) = try Self.folder()
        #expect(StaticFiles.file("css/app.css", in: root)?.size == 19)
        #expect(StaticFiles.file("logo.svg", in: root) != nil)
        #expect(StaticFiles.file("same.css", in: root) != nil, "a link to a file inside the folder is that file")
        #expect(StaticFiles.file("up/public/css/app.css", in: root) != nil, "so is a path through a link that comes back inside")
        for refused in ["", "css", "css/", ".env", ".git/config", "css/../.env", "../outside.txt", "css/../../outside.txt", "out.txt",
                        "up/outside.txt", "./logo.svg", "css//app.css", "nothing.css", "logo.svg/", "css\\app.css"] {
            #expect(StaticFiles.file(refused, in: root) == nil, "\(refused) is served")
        }
    }

    @Test func typesByExtension() {
        #expect(StaticFiles.contentType(of: "/a/b/app.CSS") == "text/css; charset=utf-8")
        #expect(StaticFiles.contentType(of: "/a/logo.svg") == "image/svg+xml")
        #expect(StaticFiles.contentType(of: "/a/font.woff2") == "font/woff2")
        #expect(StaticFiles.contentType(of: "/a/README") == "application/octet-stream")
        #expect(StaticFiles.contentType(of: "/a.d/README") == "application/octet-stream")
    }

    /// HTTP dates round-trip over a century of times; malformed ones are no date.
    @Test func httpDatesReadBackAsWritten() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &generator)   // 1970 to 2100
            #expect(StaticFiles.parseHTTPDate(StaticFiles.httpDate(seconds)) == seconds)
        }
        #expect(StaticFiles.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        for bad in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
                    "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "", "garbage"] {
            #expect(StaticFiles.parseHTTPDate(bad) == nil, "\(bad)")
        }
    }

    /// The validators, at their boundary: the same ETag (or weak, or `*`, or in a list) is a
    /// 304, another is the file; without If-None-Match, a date at the file's time or after is a
    /// 304, one second before is the file; If-None-Match wins over the date.
    @Test func aCurrentCopyIsA304AndAnyOtherIsTheFile() throws {
        let (root, _) = try Self.folder()
        let file = try #require(StaticFiles.file("css/app.css", in: root))
        let tag = StaticFiles.etag(file)
        func status(_ headers: [String: String]) -> Int {
            StaticFiles.response(for: file, request: WebRequest(method: "GET", location: nil, headers: headers), cacheControl: "no-cache").status
        }
        #expect(status([:]) == 200)
        #expect(status(["If-None-Match": tag]) == 304)
        #expect(status(["If-None-Match": "W/" + tag]) == 304)
        #expect(status(["If-None-Match": "\"x\", " + tag]) == 304)
        #expect(status(["If-None-Match": "*"]) == 304)
        #expect(status(["If-None-Match": "\"x\""]) == 200)
        #expect(status(["If-None-Match": String(tag.dropLast())]) == 200)
        #expect(status(["If-Modified-Since": StaticFiles.httpDate(file.modified)]) == 304)
        #expect(status(["If-Modified-Since": StaticFiles.httpDate(file.modified + 1)]) == 304)
        #expect(status(["If-Modified-Since": StaticFiles.httpDate(file.modified - 1)]) == 200)
        #expect(status(["If-None-Match": "\"x\"", "If-Modified-Since": StaticFiles.httpDate(file.modified)]) == 200)
        let response = StaticFiles.response(for: file, request: WebRequest(method: "GET", location: nil), cacheControl: "public, max-age=60")
        #expect(response.headers["ETag"] == tag && response.headers["Last-Modified"] == StaticFiles.httpDate(file.modified))
        #expect(response.headers["Cache-Control"] == "public, max-age=60" && response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == "body { color: red }")
        // A change to the file is a new validator.
        try Data("body { color: blue; }".utf8).write(to: URL(fileURLWithPath: root + "/css/app.css"))
        #expect(StaticFiles.etag(try #require(StaticFiles.file("css/app.css", in: root))) != tag)
    }

    /// Through the server: a file, its 304 (no body, no length), HEAD without the body, a 404
    /// for what is hidden, a file too large refused and logged; the page's own script has an
    /// ETag and a 304 too.
    @Test func theServerServesTheFolder() async throws {
        let (root, _) = try Self.folder()
        let log = Lines()
        let attack = WebServerAttackTests()
        let server = try await attack.server(log: log)
        server.serveFiles(in: root, at: "/static")
        server.serveFiles(in: root, at: "/small/", maximumBytes: 6)
        let (port, task) = try await attack.start(server)
        defer { task.cancel() }
        func get(_ target: String, _ headers: String = "", method: String = "GET") async throws -> String {
            let client = try await RawClient.connect(port)
            try await client.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
            return String(decoding: await client.readUntilClosed().bytes, as: UTF8.self)
        }
        let first = try await get("/static/css/app.css")
        #expect(first.hasPrefix("HTTP/1.1 200") && first.hasSuffix("\r\n\r\nbody { color: red }"), "\(first)")
        let tag = try #require(first.firstMatch(of: /ETag: ("[^"]*")/)?.output.1)
        #expect(first.contains("Last-Modified: ") && first.contains("Content-Type: text/css; charset=utf-8") && first.contains("Content-Security-Policy"))
        let again = try await get("/static/css/app.css", "If-None-Match: \(tag)\r\n")
        #expect(again.hasPrefix("HTTP/1.1 304 Not Modified") && !again.contains("Content-Length") && again.hasSuffix("\r\n\r\n"), "\(again)")
        let head = try await get("/static/logo.svg", method: "HEAD")
        #expect(head.hasPrefix("HTTP/1.1 200") && head.contains("Content-Length: 6") && head.hasSuffix("\r\n\r\n"), "\(head)")
        for hidden in ["/static/.env", "/static/.git/config", "/static/%2e%2e/outside.txt", "/static/out.txt", "/static/css", "/static/"] {
            #expect(try await get(hidden).hasPrefix("HTTP/1.1 404"), "\(hidden)")
        }
        #expect(try await get("/small/logo.svg").hasPrefix("HTTP/1.1 200"))
        #expect(try await get("/small/css/app.css").hasPrefix("HTTP/1.1 404"))
        #expect(log.all.contains { $0.contains("refused to serve /small/css/app.css: 19 bytes") }, "\(log.all)")
        let script = try await get("/mvvm.js")
        let scriptTag = try #require(script.firstMatch(of: /ETag: ("[^"]*")/)?.output.1)
        #expect(try await get("/mvvm.js", "If-None-Match: \(scriptTag)\r\n").hasPrefix("HTTP/1.1 304"))
        #expect(try await get("/mvvm.css", "If-None-Match: \(scriptTag)\r\n").hasPrefix("HTTP/1.1 200"))
        await server.stop()
    }
}
#endif
