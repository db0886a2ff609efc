#if WebServer
import Foundation
import WebUI

/// What the server answers to a request that is not its WebSocket: the app's routes, the page's
/// own files, `/stats`, and a page, whose session is opened for the browser that asked (its
/// cookie).
extension WebAppServer {
    /// The answer to a request that is not the WebSocket: a route, the page's files, or a page.
    func answer(_ request: WebRequest) async -> WebResponse {
        let sessions = self.sessions
        let path = request.location?.path ?? ""
        let matching = routes.withLock { routes in routes.filter { $0.prefix ? path.hasPrefix($0.path) : path == $0.path } }
        if let route = matching.first(where: { $0.method == request.method }) {
            return await route.handler(request)
        }
        if !matching.isEmpty {
            return WebResponse.text("\(request.method) is not allowed here.", status: 405)
        }
        switch path {
        case "/mvvm.js":
            // Asked again each time (no-cache), and a 304 while the browser has this build's.
            return StaticFiles.builtIn(PageShell.script, tag: StaticFiles.scriptTag, contentType: "text/javascript; charset=utf-8", request: request)
        case "/mvvm.css":
            return StaticFiles.builtIn(PageShell.stylesheet, tag: StaticFiles.stylesheetTag, contentType: "text/css; charset=utf-8", request: request)
        case "/favicon.ico":
            return WebResponse(contentType: "image/x-icon", headers: ["Cache-Control": "max-age=86400"], body: Data(Favicon.ico))
        case "/stats" where statsToken.map { Self.sameToken(request.headers["authorization"], "Bearer " + $0) || Self.sameToken(request[query: "token"], $0) } ?? false:
            let (open, closed, leaked) = (sessions.openCount, sessions.closedCount, sessions.leakedCount)
            return .json("{\"open\":\(open),\"closed\":\(closed),\"leaked\":\(leaked)}")
        default:
            break
        }
        guard request.method == "GET" else { return .text("\(request.method) is not allowed here.", status: 405) }
        guard let location = request.location else { return .html(PageShell.notFound(head: pageHead, base: deployment.path), status: 400) }
        // Another site's script (a no-cors fetch) must not open sessions; a link the user
        // follows from another site is a navigation, and fine.
        if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site",
           request.headers["sec-fetch-mode"] != "navigate" {
            refusals("refused a new session for a \(site) \(request.headers["sec-fetch-mode"] ?? "") request")
            return .text("Pages are opened by navigating to them.", status: 403)
        }
        let base = deployment.path, head = pageHead
        let signedIn = await signInState(cookie: request.headers["cookie"])
        if let answer = signInAnswer(signedIn, for: location, head: head) { return answer }
        let cookie = Self.browserKey(request.headers["cookie"])
        let owner = cookie ?? Self.newBrowserKey()
        let client = request.clientAddress.isEmpty ? nil : request.clientAddress
        // The session is opened, and its page made, on the session's own executor: a new one
        // is run here, on this task's thread (nothing is queued on it yet); the main one there.
        let executor = sessions.executorForNewSession(at: location)
        let open: @Sendable () -> (status: Int, html: String) = { [sessions] in
            switch sessions.open(at: location, owner: owner, client: client, signedIn: signedIn.signedIn) {
            case .opened(let session): return (200, PageShell.html(for: session, head: head, base: base))
            case .notFound: return (404, PageShell.notFound(head: head, base: base))
            case .full: return (503, "")
            case .fullForAddress: return (429, "")
            }
        }
        let page = executor.isMain ? await executor.perform(open) : executor.performHere(open)
        if page.status == 503 || page.status == 429 {
            // In the app's style, with a way to ask again (issue 57); Retry-After as RFC 9110 says.
            let why = page.status == 503
                ? "The server holds as many open pages as it can right now. Close a tab you no longer need, then try again."
                : "Your address has too many pages of this app open. Close a tab you no longer need, then try again."
            var response = WebResponse.html(PageShell.refused(why, address: base + location.description, head: head, base: base), status: page.status)
            response.headers["Retry-After"] = "5"
            return response
        }
        var response = WebResponse.html(page.html, status: page.status)
        if cookie == nil, page.status == 200 {
            response.cookies.append("\(Self.browserCookie)=\(owner); Path=\(cookiePath); Max-Age=\(Self.browserCookieLifetime); HttpOnly; SameSite=Lax"
                + (request.scheme == "https" ? "; Secure" : ""))
        }
        if case .signedOut(staleCookie: true) = signedIn { response.cookies.append(clearedSignInCookie()) }
        return response
    }

    /// The cookie that ties a session to the browser that opened it: a random secret, set with
    /// the first page (HttpOnly: the page's script cannot read it; SameSite=Lax: another site's
    /// requests do not carry it) and checked when a WebSocket attaches to a session, as
    /// LiveView ties its socket to a signed session.
    static let browserCookie = "mvvm_browser"

    /// How long a browser keeps its secret: 400 days (the most browsers keep a cookie), so that a
    /// browser an account was signed in from is known to it again (its own count of failed
    /// sign-ins, ``Accounts/Limits-swift.struct/failuresPerKnownBrowser``).
    static let browserCookieLifetime = 400 * 86_400

    /// A new browser secret: 128 random bits, in hex.
    static func newBrowserKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// The browser secret in a `Cookie` header, if it has one of the right shape.
    static func browserKey(_ header: String?) -> String? {
        cookie(browserCookie, in: header, hexDigits: 32)
    }
}
#endif
