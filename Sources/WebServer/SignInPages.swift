#if WebServer
import Accounts
import Foundation
import Signals
import WebUI

/// The server's side of accounts (issue 60): who a page is opened for, from the browser's
/// sign-in cookie; addresses that need a user; the page's hand-off for its cookie; tabs whose
/// sign-in ended, on any instance, loaded anew.
extension WebAppServer {
    /// How the server signs people in.
    struct SignInSetup: Sendable {
        let accounts: Accounts
        /// The app's sign-in address (`/sign-in`): where a signed-out visit to an address that
        /// needs a user goes, with `?next=` that address.
        let path: String
        let requiring: @Sendable (WebLocation) -> Bool
    }

    /// Signs people in with `accounts`: each page is opened for the person the browser's sign-in
    /// cookie names (`Document.visitor`, and the tab's `AccountSession`); a signed-out
    /// visit to an address `requiringSignIn` names goes to `signInPath` with `?next=` that
    /// address (the sign-in screen returns there); a tab whose sign-in ends — signed out there,
    /// in another tab, everywhere, on any instance on the same database — loads its address
    /// anew, signed out. The page takes its cookie at `POST /mvvm-sign-in` (under the server's
    /// path), with the one-time code its session was given: HttpOnly, SameSite=Lax, Secure when
    /// the request came over TLS through a trusted proxy, for the session's absolute lifetime.
    ///
    /// ```swift
    /// server.useAccounts(accounts, signInPath: "/sign-in") { location in location.path.hasPrefix("/todos") }
    /// ```
    public func useAccounts(_ accounts: Accounts, signInPath: String = "/sign-in",
                            requiringSignIn: @escaping @Sendable (WebLocation) -> Bool = { _ in false }) {
        signIn.withLock { $0 = SignInSetup(accounts: accounts, path: signInPath, requiring: requiringSignIn) }
        let sessions = self.sessions
        let watch = accounts.signedOut.sink(value: { ended in
            for session in sessions.sessions(signedInWith: ended) {
                session.perform { session.document.signedOut() }
            }
        })
        signOutWatch.withLock { $0?.dispose(); $0 = watch }
        route("/mvvm-sign-in", method: "POST") { [weak self] request in
            await self?.takeSignInCookie(request) ?? .text("The server is stopping.", status: 503)
        }
    }

    /// The cookie that signs a browser in: the session's token (256 random bits, in hex), kept
    /// by the server only as its SHA-256.
    static let signInCookie = "mvvm_user"

    /// Who a request's sign-in cookie signs in, as far as the server can tell.
    enum SignInState: Sendable {
        /// The server has no accounts.
        case noAccounts
        case signedIn(WebSignedIn)
        /// No one: `staleCookie` when the browser sent a cookie that signs no one in any more
        /// (to be cleared).
        case signedOut(staleCookie: Bool)
        /// The database could not say.
        case unavailable(String)

        var signedIn: WebSignedIn? {
            if case .signedIn(let who) = self { return who }
            return nil
        }
    }

    /// Who the `Cookie` header's sign-in cookie signs in.
    func signInState(cookie header: String?) async -> SignInState {
        guard let setup = signIn.withLock({ $0 }) else { return .noAccounts }
        guard let token = Self.cookie(Self.signInCookie, in: header, hexDigits: 64) else {
            return .signedOut(staleCookie: Self.hasCookie(Self.signInCookie, in: header))
        }
        do {
            guard let found = try await setup.accounts.session(forToken: token) else { return .signedOut(staleCookie: true) }
            return .signedIn(WebSignedIn(session: found.session, userID: found.user.id, email: found.user.email))
        } catch {
            return .unavailable(error.message)
        }
    }

    /// What a page request is answered before a session is opened for it, if anything: a
    /// signed-out visit to an address that needs a user goes to the sign-in page; a database
    /// that cannot say who is signed in is said so.
    func signInAnswer(_ state: SignInState, for location: WebLocation, head: PageShell.Head) -> WebResponse? {
        guard let setup = signIn.withLock({ $0 }) else { return nil }
        let base = deployment.path
        if case .unavailable(let why) = state {
            var response = WebResponse.html(
                PageShell.refused("Signing in is unavailable right now (\(why)). Try again in a moment.", address: base + location.description, head: head, base: base),
                status: 503
            )
            response.headers["Retry-After"] = "5"
            return response
        }
        guard state.signedIn == nil, setup.requiring(location), location.path != setup.path else { return nil }
        let next = WebLocation(path: setup.path, query: [WebLocation.QueryItem("next", location.description)])
        var response = WebResponse(status: 303, contentType: "text/plain; charset=utf-8", headers: ["Location": base + next.description, "Cache-Control": "no-store"],
                                   body: Data("Sign in first.\n".utf8))
        if case .signedOut(true) = state { response.cookies.append(clearedSignInCookie()) }
        return response
    }

    /// `POST /mvvm-sign-in` with a sign-in's one-time code: the session's cookie, for the
    /// browser the code was made for, once.
    func takeSignInCookie(_ request: WebRequest) async -> WebResponse {
        guard let setup = signIn.withLock({ $0 }) else { return .text("Not found.", status: 404) }
        if let site = request.headers["sec-fetch-site"], site != "same-origin" {
            refusals("refused a sign-in hand-off from a \(site) request")
            return .text("A sign-in is completed by its own page.", status: 403)
        }
        let code = String(decoding: request.body.prefix(128), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let browser = Self.browserKey(request.headers["cookie"])
        do {
            let token = try await setup.accounts.redeem(handOff: code, browser: browser)
            var response = WebResponse(status: 204, contentType: "text/plain; charset=utf-8", headers: ["Cache-Control": "no-store"], body: Data())
            let lifetime = setup.accounts.limits.absoluteLifetime.components.seconds
            response.cookies.append("\(Self.signInCookie)=\(token); Path=\(cookiePath); Max-Age=\(lifetime); HttpOnly; SameSite=Lax"
                + (request.scheme == "https" ? "; Secure" : ""))
            return response
        } catch {
            refusals("refused a sign-in hand-off: \(error == .incorrect ? "no such code for this browser, used, or too old" : error.message)")
            return .text(error == .incorrect ? "This sign-in cannot be completed: sign in again." : error.message, status: error == .incorrect ? 403 : 503)
        }
    }

    /// A `Set-Cookie` value that removes the sign-in cookie.
    func clearedSignInCookie() -> String {
        "\(Self.signInCookie)=; Path=\(cookiePath); Max-Age=0; HttpOnly; SameSite=Lax"
    }

    var cookiePath: String { deployment.path.isEmpty ? "/" : deployment.path }

    /// The value of cookie `name` in a `Cookie` header, if it is `hexDigits` lower-case
    /// hexadecimal digits.
    static func cookie(_ name: String, in header: String?, hexDigits: Int) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard value.utf8.count == hexDigits, value.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
            return value
        }
        return nil
    }

    /// Whether a `Cookie` header has a cookie `name` at all.
    static func hasCookie(_ name: String, in header: String?) -> Bool {
        header?.split(separator: ";").contains { $0.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) == name } ?? false
    }
}
#endif

#if WebServer
extension Document {
    /// This tab's accounts, for its view models: who its page was opened signed in as (from the
    /// browser's cookie, by a server that ``WebAppServer/useAccounts(_:signInPath:requiringSignIn:)``),
    /// and sign-in, sign-up, sign-out and password change for it, their results delivered on
    /// the tab's executor; a sign-in hands the page its cookie and loads it anew.
    public func account(_ accounts: Accounts) -> AccountSession {
        let signedIn = visitor.signedIn.map { AccountSignedIn(session: $0.session, user: AccountUser(id: $0.userID, email: $0.email)) }
        let executor = self.executor
        // SAFETY: the document is used only on its executor: the hand-off hops there first.
        nonisolated(unsafe) weak let document = self
        return AccountSession(
            accounts: accounts, signedIn: signedIn, client: AccountClient(browser: visitor.browser, address: visitor.client),
            scheduler: executor.scheduler(),
            handOff: { code, next in
                executor.run { document?.handOffSignIn(code, then: next.flatMap(WebLocation.init)) }
            }
        )
    }
}

extension WebTab {
    /// This tab's accounts (`Document.account(_:)`), for the services its view models get.
    public func account(_ accounts: Accounts) -> AccountSession {
        document.account(accounts)
    }
}
#endif
