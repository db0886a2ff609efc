// The Accounts article's code (Sources/Accounts/Accounts.docc/SigningPeopleIn.md), built and
// run: a notes app whose every address but sign-in and sign-up needs a user, each user seeing
// their own notes.
#if WebServer
import Accounts
import Foundation
import MVVM
import ScreenKit
import Signals
import Store
import Testing
import WebServer
import WebUI
import WebUITestSupport

enum Notes {
    static let migrations = [Migration("1-notes", ["CREATE TABLE notes (id INTEGER PRIMARY KEY, owner_id BIGINT NOT NULL, text TEXT NOT NULL)"])]
}

struct NotesServices: Sendable {
    let store: Store
    let accounts: AccountServices
}

final class NotesViewModel: Sendable {
    let title = "Notes"
    let notes: Property<[String]>

    init(store: Store, owner: AccountUser) {
        notes = store.property(Query("SELECT text FROM notes WHERE owner_id = ? ORDER BY id", [.integer(owner.id)], reads: ["notes"]) { rows throws(StoreError) in
            var texts: [String] = []
            for row in rows { texts.append(try row.text("text")) }
            return texts
        }, initial: [])
    }
}

enum NotesScreens {
    static func notes(_ viewModel: NotesViewModel) -> Screen {
        Screen(viewModel.title) {
            Text(viewModel.notes.map { $0.joined(separator: "\n") })
        }
    }
}

// The article's blocks, in order.

enum NotesAddresses: AppAddresses {
    typealias Services = NotesServices

    static func stack(at address: Address, services: NotesServices) -> [any AnyObject & Sendable]? {
        // /sign-in, /sign-up, and /account above the notes (Back leads into the app).
        if let screens = AccountAddresses.stack(at: address, services: services.accounts, home: notes(services)) { return screens }
        return address.path.isEmpty ? notes(services) : nil
    }

    static func notes(_ services: NotesServices) -> [any AnyObject & Sendable] {
        guard let user = services.accounts.account.user else { return [] }
        return [NotesViewModel(store: services.store, owner: user)]   // only this user's notes
    }

    static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        AccountAddresses.address(of: viewModel) ?? (viewModel is NotesViewModel ? Address() : nil)
    }
}

func serveNotes(port: UInt16) async throws -> (WebAppServer, Accounts) {
    let store = try await Store.sqliteInMemory(migrations: Notes.migrations + Accounts.migrations)
    let accounts = Accounts(store: store)
    let sessions = WebSessions(addresses: NotesAddresses.self, servicesPerTab: { tab in
        NotesServices(store: store, accounts: AccountServices(account: tab.account(accounts), navigator: tab.navigator))
    }) { screens in
        screens.register(NotesViewModel.self, described: NotesScreens.notes)
        screens.register(SignInViewModel.self, described: AccountScreens.signIn)
        screens.register(SignUpViewModel.self, described: AccountScreens.signUp)
        screens.register(AccountViewModel.self, described: AccountScreens.account)
    }
    let server = try WebAppServer(port: port, sessions: sessions, log: { print($0) })
    server.useAccounts(accounts, signInPath: "/sign-in") { location in
        location.path != "/sign-in" && location.path != "/sign-up"
    }
    return (server, accounts)
}

@Suite struct AccountsArticleTests {
    @Test func theArticlesBlocksAreThisFilesCode() throws {
        let (count, missing) = try ArticleCode.blocksMissing(
            from: ["Tests/WebServerTests/AccountsArticleTests.swift"], article: "Sources/Accounts/Accounts.docc/SigningPeopleIn.md")
        #expect(count == 4 && missing.isEmpty, "\(missing)")
    }

    /// The app serves: signed out, `/` goes to sign-in; signed in, it opens the user's notes.
    @Test func theNotesAppServesItsUsersOwnNotes() async throws {
        let (server, accounts) = try await serveNotes(port: 0)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        let port = try await server.waitUntilListening()
        func get(_ path: String, cookies: String = "") async throws -> String {
            let client = try await RawClient.connect(port)
            try await client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookies.isEmpty ? "" : "Cookie: \(cookies)\r\n")Connection: close\r\n\r\n")
            return String(decoding: await client.readUntilClosed(timeout: .seconds(60)).bytes, as: UTF8.self)
        }
        #expect(try await get("/").contains("Location: /sign-in?next=/"))
        let tab = AccountSession(accounts: accounts, signedIn: nil, client: AccountClient(browser: nil, address: "10.0.0.1"), handOff: { _, _ in })
        #expect(tab.user == nil)
        #expect(try await get("/sign-in").contains(">Sign in<"))
        let browser = String(repeating: "c3", count: 16)
        let ada = try await accounts.signUp(email: "ada@example.com", password: "lovelace-1815", from: AccountClient(browser: browser, address: nil))
        let token = try await accounts.redeem(handOff: ada.handOff, browser: browser)
        let page = try await get("/", cookies: "mvvm_browser=\(browser); mvvm_user=\(token)")
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains(">Notes<") && !page.contains(">Sign in<"), "\(page.suffix(800))")
        await server.stop()
    }
}
#endif
