import Foundation
import MVVM
import Observation
import Signals
import Synchronization
import Testing
import WebUITestSupport
import WebUI

// T-BEYOND4 (the browser view layer): the code of the WebUI article
// (Sources/WebUI/WebUI.docc/BuildingAPage.md), compiled and run;
// the last test checks that every swift block of the article is in this file.

/// The article's view model: names that contain the query, as you type.
final class SearchViewModel: Sendable {
    static let names = ["Swift 6", "Swift Testing", "SwiftUI", "Objective-C", "Rust"]
    let query = MutableProperty("")
    let results: Property<[String]>
    let search: Action<Void, [String], Never>

    init() {
        let found = query.map { text in
            text.count < 3 ? [] : SearchViewModel.names.filter { $0.lowercased().contains(text.lowercased()) }
        }
        results = found
        search = Action(enabledIf: query.map { $0.count >= 3 }) { _ in Signal.just(found.value) }
    }
}

func searchPage(_ viewModel: SearchViewModel) -> NavigationStack.Page {
    let field = TextField(placeholder: "Search (3+ characters)")
    field.bind(to: viewModel.query)                        // two-way
    let go = Button("Go")
    go.bind(to: viewModel.search)                          // enabled and busy with the action
    let results = ListView(emptyText: "Nothing yet")
    viewModel.results.signal
        .map { names in names.map { ListView.Row(key: $0, title: $0) } }
        .bind(to: results, \.rows)                         // only changed rows are sent
    return .init(title: "Search", content: Stack(.vertical, [Stack(.horizontal, [field, go]), results]))
}

final class SearchApp: WebSessionContent {
    let navigator = Navigator()
    let stack = NavigationStack()

    init(document: Document) {
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(SearchViewModel.self, searchPage)
        document.root.setChildren([stack])                 // on the page first, then bound
        navigator.push(SearchViewModel())
        stack.bind(to: navigator, registry: registry)
    }

    func close() { navigator.close() }
}

@MainActor @Observable final class ClockViewModel {       // a @MainActor view model
    var ticks = 0
}

@MainActor final class ClockPage: @MainActor WebSessionContent {
    let viewModel = ClockViewModel()

    init(document: Document) {
        let label = Label("Ticks: \(viewModel.ticks)")
        document.root.setChildren([label])
    }

    func close() {}
}

final class HomePage: WebSessionContent {                 // on a session's own executor
    init(document: Document) {
        let toClock = Button("Clock")
        toClock.onPress = { [weak document] in document?.load(WebLocation(path: "/clock")) }
        document.root.setChildren([toClock])
    }

    func close() {}
}

func clockAppSessions() -> WebSessions {
    WebSessions(onMainActorAt: { $0.path == "/clock" },
                mainActorRoutes: { document, _ in ClockPage(document: document) },
                routes: { document, location in location.path == "/" ? HomePage(document: document) : nil })
}

@MainActor
@Suite struct ArticleTests {
    @Test func sessionsOfTheArticle() throws {
        let sessions = WebSessions { document in SearchApp(document: document) }
        let session = try #require(sessions.open())
        #expect(PageShell.html(for: session).contains("Search (3+ characters)"))
        session.close()
    }

    @Test func typingSearchesAndShowsRows() throws {
        let sessions = WebSessions { document in
            document.flushesAutomatically = false             // the test flushes
            return SearchApp(document: document)
        }
        let session = try #require(sessions.open())
        let frames = Mutex<[String]>([])
        let token = session.connect(send: { frame in frames.withLock { $0.append(frame) } })
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
        let field = try #require(session.document.root.first(TextField.self))
        session.receive(#"{"t":"i","id":"\#(field.id)","v":"swift","n":1}"#, token: token)
        session.document.flush()
        #expect(frames.withLock { $0.last }?.contains("Swift 6") == true)  // the new rows
    }

    /// The article's app with one `@MainActor` page: `/clock` on the main actor, made by
    /// `mainActorRoutes`; `/` on an executor of its own, whose button loads `/clock` as a page.
    @Test func aMainActorPageOfTheArticle() throws {
        let sessions = clockAppSessions()
        #expect(sessions.runsOnMainActor(at: WebLocation(path: "/clock")) && !sessions.runsOnMainActor(at: .root))
        guard case .opened(let clock) = sessions.open(at: WebLocation(path: "/clock")) else { Issue.record("no session at /clock"); return }
        #expect(PageShell.html(for: clock).contains("Ticks: 0"))
        clock.close()
        guard case .opened(let home) = sessions.open(at: .root) else { Issue.record("no session at /"); return }
        let frames = Mutex<[String]>([])
        let token = home.connect(send: { frame in frames.withLock { $0.append(frame) } })
        home.receive(#"{"t":"hello","s":"\#(home.id)","q":0}"#, token: token)
        let button = try #require(home.document.root.first(Button.self))
        home.receive(#"{"t":"c","id":"\#(button.id)","n":1}"#, token: token)
        home.document.flush()
        #expect(frames.withLock { $0.joined() }.contains(#"["l","/clock"]"#))
        home.close()
    }

    @Test func articleCodeIsThisFile() throws {
        let (count, missing) = try ArticleCode.blocksMissing(from: ["Tests/WebUITests/ArticleTests.swift"], article: "Sources/WebUI/WebUI.docc/BuildingAPage.md")
        #expect(count == 4)
        for block in missing {
            Issue.record("this block of BuildingAPage.md is in none of ArticleTests.swift:\n\(block)")
        }
    }
}
