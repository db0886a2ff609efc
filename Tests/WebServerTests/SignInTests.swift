// Issue 60: the server's side of accounts — a page opened for whoever the browser's sign-in
// cookie names, addresses that need a user, the page's one-time hand-off for its HttpOnly
// cookie, a sign-in that ended loading its tabs anew, and a page of an ended session resumed
// for whoever its cookie names.
#if WebServer
import Accounts
import Foundation
import Signals
import Store
import Testing
@testable import WebServer
@testable import WebUI

@Suite struct SignInTests {
    static let browser = String(repeating: "a1", count: 16)

    /// A page that keeps its patches (no automatic flush) and says who it was opened for.
    final class Who: WebSessionContent, @unchecked Sendable {
        // SAFETY: made and used on its session's executor; tests read it through `perform`.
        let document: Document
        init(_ document: Document) {
            self.document = document
            document.flushesAutomatically = false
            document.root.setChildren([Label(document.visitor.signedIn?.email ?? "nobody")])
        }
        func close() {}
    }

    static func accounts() async throws -> Accounts {
        var limits = Accounts.Limits()
        limits.hashing = PasswordHashing(log2Rounds: 10, blockSize: 8, parallelism: 1)
        return Accounts(store: try await Store.sqliteInMemory(migrations: Accounts.migrations), limits: limits)
    }

    struct Server {
        let server: WebAppServer
        let sessions: WebSessions
        let accounts: Accounts
        let port: UInt16
        let task: Task<Void, any Error>

        static func start() async throws -> Server {
            let log = Lines()
            let sessions = WebSessions(limits: .init(sessions: 20, reconnectGrace: .seconds(60)), log: log.append, routes: { document, location in
                ["/", "/private", "/sign-in"].contains(location.path) ? Who(document) : nil
            })
            let server = try WebAppServer(port: 0, sessions: sessions, log: log.append)
            let accounts = try await SignInTests.accounts()
            server.useAccounts(accounts, signInPath: "/sign-in") { $0.path.hasPrefix("/private") }
            let task = Task { try await server.run() }
            return Server(server: server, sessions: sessions, accounts: accounts, port: try await server.waitUntilListening(), task: task)
        }

        func request(_ head: String, body: String = "") async throws -> String {
            let client = try await RawClient.connect(port)
            try await client.send(head + "Host: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            return String(decoding: await client.readUntilClosed(timeout: .seconds(60)).bytes, as: UTF8.self)
        }

        func get(_ path: String, cookies: String? = nil) async throws -> String {
            try await request("GET \(path) HTTP/1.1\r\n" + (cookies.map { "Cookie: \($0)\r\n" } ?? ""))
        }

        func handOff(_ code: String, browser: String? = SignInTests.browser, site: String? = nil) async throws -> String {
            try await request("POST /mvvm-sign-in HTTP/1.1\r\n" + (browser.map { "Cookie: mvvm_browser=\($0)\r\n" } ?? "")
                + (site.map { "Sec-Fetch-Site: \($0)\r\n" } ?? ""), body: code)
        }

        /// A page's session whose page shows `email`'s sign-in, its patches kept.
        func patches(of session: String) async -> [Patch] {
            var all: [Patch] = []
            for open in sessions.sessions(signedInWith: session) {
                all += await open.executor.perform { (open.content as? Who)?.document.pendingPatches ?? [] }
            }
            return all
        }

        func stop() async {
            await server.stop()
            task.cancel()
        }
    }

    static func cookie(_ name: String, in answer: String) -> String? {
        answer.firstMatch(of: try! Regex("Set-Cookie: \(name)=([^;\\r]*)[^\\r]*"))?.output[0].substring.map(String.init)
    }

    @Test func aSignInTakesItsCookieOnceAndOpensPagesForItsUser() async throws {
        let server = try await Server.start()
        // Signed out, an address that needs a user goes to sign-in, and back after it.
        let away = try await server.get("/private?tab=2")
        #expect(away.hasPrefix("HTTP/1.1 303") && away.contains("Location: /sign-in?next=/private%3Ftab%3D2\r\n"), "\(away.prefix(300))")
        #expect(try await server.get("/sign-in?next=%2Fprivate").hasPrefix("HTTP/1.1 200"))
        // A cookie planted before sign-in (fixation) is not the one after it, and signs no one in.
        let planted = String(repeating: "5", count: 64)
        let made = try await server.accounts.signUp(email: "ada@example.com", password: "lovelace-1815",
                                                    from: AccountClient(browser: Self.browser, address: "127.0.0.1"))
        // Only the browser the code is for, only from its own page, only once.
        #expect(try await server.handOff(made.handOff, browser: String(repeating: "b2", count: 16)).hasPrefix("HTTP/1.1 403"))
        #expect(try await server.handOff(made.handOff, browser: nil).hasPrefix("HTTP/1.1 403"))
        #expect(try await server.handOff(made.handOff, site: "cross-site").hasPrefix("HTTP/1.1 403"))
        let taken = try await server.handOff(made.handOff)
        #expect(taken.hasPrefix("HTTP/1.1 204"), "\(taken)")
        let header = try #require(Self.cookie("mvvm_user", in: taken))
        #expect(header.contains("; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax") && !header.contains("Secure"), "\(header)")
        let token = String(header.dropFirst("Set-Cookie: mvvm_user=".count).prefix(64))
        #expect(token.count == 64 && token != planted)
        #expect(try await server.handOff(made.handOff).hasPrefix("HTTP/1.1 403"), "a code works once")
        // Pages open for Ada with the cookie; the planted one signs no one in and is cleared.
        let cookies = "mvvm_browser=\(Self.browser); mvvm_user=\(token)"
        let page = try await server.get("/private", cookies: cookies)
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("ada@example.com"), "\(page.prefix(400))")
        #expect(Self.cookie("mvvm_user", in: page) == nil, "a valid cookie is left alone")
        let plantedPage = try await server.get("/", cookies: "mvvm_browser=\(Self.browser); mvvm_user=\(planted)")
        #expect(plantedPage.contains("nobody") && plantedPage.contains("Set-Cookie: mvvm_user=; Path=/; Max-Age=0"), "\(plantedPage.prefix(600))")
        #expect(try await server.get("/private", cookies: "mvvm_user=\(planted)").hasPrefix("HTTP/1.1 303"))
        _ = try await server.get("/", cookies: cookies)
        #expect(server.sessions.sessions(signedInWith: made.session).count == 2)
        await server.stop()
    }

    /// A sign-out loads every tab of that sign-in anew (and no one else's); the cookie copied
    /// after it is refused and cleared.
    @Test func aSignOutReloadsItsTabsAndItsCookieIsRefusedAfter() async throws {
        let server = try await Server.start()
        var tokens: [String] = []
        var sessions: [String] = []
        for email in ["ada@example.com", "bob@example.com"] {
            let made = try await server.accounts.signUp(email: email, password: "password-\(email)",
                                                        from: AccountClient(browser: Self.browser, address: nil))
            let taken = try await server.handOff(made.handOff)
            tokens.append(String(try #require(Self.cookie("mvvm_user", in: taken)).dropFirst("Set-Cookie: mvvm_user=".count).prefix(64)))
            sessions.append(made.session)
            for path in ["/", "/private"] { _ = try await server.get(path, cookies: "mvvm_browser=\(Self.browser); mvvm_user=\(tokens.last!)") }
        }
        #expect(await server.patches(of: sessions[0]).filter { $0 == .reload }.isEmpty)
        try await server.accounts.signOut(session: sessions[0])
        var reloads = 0
        let start = ContinuousClock.now
        while reloads < 2 && ContinuousClock.now - start < .seconds(10) {
            reloads = await server.patches(of: sessions[0]).filter { $0 == .reload }.count
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(reloads == 2, "both of Ada's tabs load anew")
        #expect(await server.patches(of: sessions[1]).filter { $0 == .reload }.isEmpty, "Bob's do not")
        let after = try await server.get("/private", cookies: "mvvm_browser=\(Self.browser); mvvm_user=\(tokens[0])")
        #expect(after.hasPrefix("HTTP/1.1 303") && after.contains("Set-Cookie: mvvm_user=; Path=/; Max-Age=0"), "\(after.prefix(400))")
        #expect(try await server.get("/private", cookies: "mvvm_user=\(tokens[1])").contains("bob@example.com"))
        await server.stop()
    }

    /// A page whose session ended (the server restarted) is opened again for whoever its cookie
    /// signs in; signed out at an address that needs a user, it is told to reload (to sign in).
    @Test @MainActor func aResumedPageIsOpenedForItsCookie() async throws {
        let accounts = try await Self.accounts()
        let sessions = WebSessions(limits: .init(sessions: 20, reconnectGrace: .seconds(60)), log: { _ in }, routes: { document, location in
            ["/", "/private"].contains(location.path) ? Who(document) : nil
        })
        let ada = AccountSignedIn(session: "s1", user: AccountUser(id: 1, email: "ada@example.com"))
        _ = accounts
        func resume(at path: String, as state: WebAppServer.SignInState) async -> [SocketMessage] {
            let (client, input) = AsyncStream<SocketMessage>.makeStream()
            let (out, continuation) = AsyncStream<SocketMessage>.makeStream()
            let socket = SessionSocket(sessions: sessions, browser: Self.browser, signIn: SocketSignIn(lookUp: { state }, requiring: { $0.path == "/private" }),
                                       log: { _ in }, send: { for message in $0 { continuation.yield(message) } })
            input.yield(.text(#"{"t":"hello","s":"0123456789abcdef0123456789abcdef","q":0,"p":"\#(path)"}"#))
            input.finish()
            for await message in client {
                let (replies, _) = await socket.receive([message])
                for reply in replies { continuation.yield(reply) }
            }
            continuation.finish()
            var all: [SocketMessage] = []
            for await message in out { all.append(message) }
            return all
        }
        let signedOut = await resume(at: "/private", as: .signedOut(staleCookie: false))
        #expect(signedOut.contains { if case .text(let text) = $0 { text.contains("You are signed out") } else { false } }, "\(signedOut)")
        let away = await resume(at: "/", as: .unavailable("the database is away"))
        #expect(away.contains { if case .text(let text) = $0 { text.contains("Signing in is unavailable") } else { false } }, "\(away)")
        #expect(sessions.openCount == 0)
        _ = await resume(at: "/private", as: .signedIn(WebSignedIn(session: ada.session, userID: ada.user.id, email: ada.user.email)))
        #expect(sessions.sessions(signedInWith: "s1").count == 1)
        #expect(sessions.sessions(signedInWith: "s1").first?.document.visitor.signedIn?.email == "ada@example.com")
        sessions.closeAll()
    }
}
#endif
