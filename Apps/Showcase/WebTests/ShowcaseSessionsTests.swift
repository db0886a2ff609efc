// T-BEYOND4, issue 41: the showcase's tabs each on an executor of their own; the Person tutorial's, whose
// view model is `@MainActor`, on the main actor, and reached from another tab by loading its
// address as a new page.
import MVVM
import ShowcaseCore
import Testing
@testable import WebShowcaseKit
@testable import WebUI
import WebUITestSupport

@Suite struct ShowcaseSessionsTests {
    let sessions = WebShowcase.sessions(configuration: WebShowcaseConfiguration(offline: true), log: { _ in })

    /// A tab opened at `address` on the executor the sessions choose for it, connected to
    /// `wire`; its session.
    func open(_ address: String, wire: Wire) async throws -> WebSession {
        let location = try #require(WebLocation(address))
        let executor = sessions.executorForNewSession(at: location)
        let sessions = self.sessions
        let session = await executor.perform { () -> WebSession? in
            guard case .opened(let session) = sessions.open(at: location) else { return nil }
            let token = session.connect(send: wire.send)
            session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(session.document.frameNumber)}"#, token: token)
            return session
        }
        return try #require(session)
    }

    /// What the session's page sends, once its turns so far have run: the frames, joined.
    func frames(of session: WebSession, _ wire: Wire, after message: String? = nil) async -> String {
        if let message {
            await session.executor.perform { session.receive(message, token: 1) }
        }
        await session.executor.perform {}
        return wire.take().joined(separator: "\n")
    }

    /// The launcher's row of `app`, as the page clicks it.
    func rowClick(_ app: ShowcaseApp, in session: WebSession, number: Int) async -> String {
        await session.executor.perform {
            let list = session.document.root.descendants.first { $0 is ListView }
            let row = list?.children[1].children[ShowcaseApp.allCases.firstIndex(of: app)!]
            return #"{"t":"c","id":"\#(row?.id ?? "none")","n":\#(number)}"#
        }
    }

    @Test func aTabIsOnAnExecutorOfItsOwnAndPersonOnTheMainActor() async throws {
        let wire = Wire()
        let launcher = try await open("/", wire: wire)
        #expect(!launcher.executor.isMain)
        let other = try await open("/flickr", wire: Wire())
        #expect(!other.executor.isMain && other.executor !== launcher.executor)
        let person = try await open("/person/1", wire: Wire())
        #expect(person.executor.isMain)
        #expect(sessions.runsOnMainActor(at: WebLocation(path: "/person/settings")))
        #expect(!sessions.runsOnMainActor(at: WebLocation(path: "/persons")) && !sessions.runsOnMainActor(at: .root))
        for session in [launcher, other, person] { await session.executor.perform { session.close() } }
    }

    /// Person from the launcher of a tab on its own executor: the page is told to load
    /// `/person` (a new page, on the main actor), and the tab's own screens stay as they were;
    /// Flickr opens in the tab itself.
    @Test func personFromALauncherOffTheMainActorLoadsItsPage() async throws {
        let wire = Wire()
        let tab = try await open("/", wire: wire)
        _ = await frames(of: tab, wire)
        let person = await frames(of: tab, wire, after: await rowClick(.person, in: tab, number: 1))
        #expect(person.contains(#"["l","/person"]"#), "\(person)")
        #expect(await tab.executor.perform { tab.document.depth } == 1)
        let flickr = await frames(of: tab, wire, after: await rowClick(.flickr, in: tab, number: 2))
        #expect(!flickr.contains(#"["l","#))
        #expect(flickr.contains(#""/flickr""#), "\(flickr)")
        #expect(await tab.executor.perform { tab.document.depth } == 2)
        // The browser's forward button to a person: that address, as a new page.
        let forward = await frames(of: tab, wire, after: #"{"t":"u","d":2,"p":"/person/2","n":3}"#)
        #expect(forward.contains(#"["l","/person/2"]"#), "\(forward)")
        await tab.executor.perform { tab.close() }
    }

    /// Person opened at its address is on the main actor and shows its screens there: the
    /// people, then the person the address names.
    @MainActor
    @Test func personAtItsAddressRunsOnTheMainActor() async throws {
        let wire = Wire()
        let session = try await open("/person", wire: wire)
        #expect(session.executor.isMain)
        #expect(session.document.title == "Person")
        session.close()
    }
}

extension Element {
    /// The element and every element under it, in document order.
    fileprivate var descendants: [Element] {
        [self] + children.flatMap(\.descendants)
    }
}
