import ArgumentParser
import FlyingFox
import Foundation
import WebServer
import WebShowcaseKit
import WebUI

/// `showcase-web`: every seed app in the browser.
@main
struct WebShowcaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showcase-web",
        abstract: "The MVVMKit showcase in the browser: every seed app, live-bound over a WebSocket.",
        discussion: """
        Opens a server on 127.0.0.1 and prints its URL; each browser tab gets its own session and \
        view models. Offline (the embedded catalogs, with generated placeholder images) unless \
        --live is given or an app's API key is set (FLICKR_API_KEY, TMDB_API_KEY or \
        TMDB_READ_ACCESS_TOKEN).

        Exit codes: 0 stopped, 1 the server failed (the port is in use, say), 64 bad arguments.
        """
    )

    @Option(help: "The address to listen on (loopback by default; another address exposes the apps to the network).")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port).")
    var port: UInt16 = 8080

    @Flag(help: "Use the live Flickr and TMDb APIs (keys from the environment).")
    var live = false

    @Flag(help: "Use the embedded catalogs even when API keys are set.")
    var offline = false

    @Option(help: "Seconds a session waits for its page to reconnect before it is closed.")
    var sessionGrace = 30

    @Option(help: "The most sessions (tabs) open at once.")
    var maxSessions = 200

    func validate() throws {
        guard sessionGrace >= 0 else { throw ValidationError("--session-grace must be 0 or more seconds") }
        guard maxSessions >= 1 else { throw ValidationError("--max-sessions must be at least 1") }
    }

    func run() async throws {
        let log: @Sendable (String) -> Void = { message in
            FileHandle.standardError.write(Data("showcase-web: \(message)\n".utf8))
        }
        let configuration = WebShowcaseConfiguration(live: live, offline: offline)
        let limits = WebSessions.Limits(sessions: maxSessions, reconnectGrace: .seconds(sessionGrace))
        let sessions = await MainActor.run {
            WebSessions(limits: limits, log: log) { document in
                WebShowcase(document: document, configuration: configuration)
            }
        }
        let server: WebAppServer
        do {
            server = try WebAppServer(host: host, port: port, sessions: sessions, log: log)
        } catch {
            log("cannot listen on \(host): \(error)")
            throw ExitCode(64)
        }
        await server.appendRoute("GET /placeholder.svg") { request in
            let query = request.query
            let svg = Placeholder.svg(label: query["t"] ?? "", key: query["k"] ?? "", width: Int(query["w"] ?? "") ?? 240, height: Int(query["h"] ?? "") ?? 240)
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "max-age=3600"], body: Data(svg.utf8))
        }
        let host = self.host
        let running = Task { try await server.run() }
        do {
            let port = try await server.waitUntilListening()
            let shown = host.contains(":") ? "[\(host)]" : host
            // Written straight to the file descriptor: a script waiting for the URL sees it at once.
            FileHandle.standardOutput.write(Data("MVVMKit showcase in the browser: http://\(shown):\(port)/\nEach tab is its own session. Ctrl-C stops the server.\n".utf8))
            try await running.value
        } catch {
            running.cancel()
            log("the server stopped: \(error)")
            throw ExitCode.failure
        }
    }
}
