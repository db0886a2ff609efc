import ArgumentParser
import Foundation
import ShowcaseCore
import TodoList
import WebShowcaseKit
import WebUI
#if WebServer
import Accounts
import Store
import WebServer
#endif

/// `showcase --web`: every seed app in the browser, each screen at its own address.
struct WebShowcaseServer {
    var host: String
    var port: UInt16
    var live: Bool
    var offline: Bool
    var sessionGrace: Int
    var maxSessions: Int
    var maxConnections: Int?
    var eventLoops: Int?
    var latency: Int
    var jitter: Int
    var statsToken: String?
    var path: String
    var publicHosts: [String]
    var trustedProxies: [String]
    var database: String
    var todoFile: String?

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("showcase: \(message)\n".utf8))
    }

    #if WebServer
    static let isAvailable = true
    static let defaultDatabase = TodoDatabase.defaultLocation

    func run() async throws {
        let log: @Sendable (String) -> Void = { Self.log($0) }
        // One to-do list for every tab, and the login app's accounts, kept in a database that
        // other instances may share.
        let todos: SharedTodos, store: Store
        do {
            (todos, store) = try await TodoDatabase.openShared(database, adding: Accounts.migrations, importing: todoFile, log: log)
        } catch {
            log("cannot open the to-do list: \(error)")
            throw ExitCode(1)
        }
        let accounts = Accounts(store: store, limits: AccountsLoginService.limits)
        var configuration = WebShowcaseConfiguration(live: live, offline: offline, todos: todos)
        let service = AccountsLoginService.makers(accounts: accounts)
        configuration.login = { scheduler, visitor in
            service(AccountClient(browser: visitor.browser, address: visitor.client), scheduler)
        }
        let limits = WebSessions.Limits(sessions: maxSessions, reconnectGrace: .seconds(sessionGrace))
        let sessions = WebShowcase.sessions(configuration: configuration, limits: limits, log: log)
        let deployment = WebAppServer.Deployment(hostNames: publicHosts, trustedProxies: trustedProxies, path: path)
        let server: WebAppServer
        do {
            server = try WebAppServer(host: host, port: port, sessions: sessions, limits: WebAppServer.Limits(connections: maxConnections ?? .max), deployment: deployment, head: ShowcaseStyle.head, latency: .milliseconds(latency), jitter: .milliseconds(jitter), statsToken: statsToken, eventLoops: eventLoops ?? WebAppServer.halfTheCores, log: log)
        } catch {
            log("cannot listen on \(host): \(error)")
            throw ExitCode(64)
        }
        server.route("/showcase.css") { _ in
            WebResponse(contentType: "text/css; charset=utf-8", headers: ["Cache-Control": "no-cache"], body: Data(ShowcaseStyle.css.utf8))
        }
        server.route("/placeholder.svg") { request in
            let svg = Placeholder.svg(label: request[query: "t"] ?? "", key: request[query: "k"] ?? "",
                                      width: Int(request[query: "w"] ?? "") ?? 240, height: Int(request[query: "h"] ?? "") ?? 240)
            return WebResponse(contentType: "image/svg+xml", headers: ["Cache-Control": "max-age=3600"], body: Data(svg.utf8))
        }
        let host = self.host
        // SIGTERM (systemd, Docker) or Ctrl-C: the server stops gracefully (each page's socket closed
        // with 1001; the pages reconnect when it is back) and the process exits 0.
        let running = Task { try await server.run(stoppingOn: [SIGTERM, SIGINT]) }
        do {
            let port = try await server.waitUntilListening()
            let shown = host.contains(":") ? "[\(host)]" : host
            let slow = latency > 0 || jitter > 0 ? " Every message waits \(latency) ms each way (--latency)\(jitter > 0 ? " and up to \(jitter) ms more (--jitter)" : "")." : ""
            // Written straight to the file descriptor: a script waiting for the URL sees it at once.
            FileHandle.standardOutput.write(Data("MVVMKit showcase in the browser: http://\(shown):\(port)\(deployment.path)/\nEach tab is its own session.\(slow) Ctrl-C stops the server.\n".utf8))
            try await running.value
        } catch {
            running.cancel()
            log("the server stopped: \(error)")
            throw ExitCode.failure
        }
    }
    #else
    static let isAvailable = false
    static let defaultDatabase = ":memory:"

    func run() async throws {
        Self.log("this showcase was built without its web server; build it with the package's WebServer trait: swift run --traits WebServer showcase --web")
        throw ExitCode(64)
    }
    #endif
}
