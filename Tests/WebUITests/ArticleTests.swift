import Foundation
import MVVM
import Signals
import Synchronization
import Testing
import WebUITestSupport
import WebUI

// The code of the WebUI article (Sources/WebUI/WebUI.docc/BuildingAPage.md), compiled and run;
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

    @Test func articleCodeIsThisFile() throws {
        let (count, missing) = try ArticleCode.blocksMissing(from: ["Tests/WebUITests/ArticleTests.swift"], article: "Sources/WebUI/WebUI.docc/BuildingAPage.md")
        #expect(count == 3)
        for block in missing {
            Issue.record("this block of BuildingAPage.md is in none of ArticleTests.swift:\n\(block)")
        }
    }
}
