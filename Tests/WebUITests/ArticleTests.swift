import Foundation
import MVVM
import Observation
import ScreenKit
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
        #expect(count == 5)
        for block in missing {
            Issue.record("this block of BuildingAPage.md is in none of ArticleTests.swift:\n\(block)")
        }
    }
}

// The section "An app with addresses", as the article has it.
struct RecipeServices: Sendable {
    let navigator: any NavigationService      // the tab's own
}

final class RecipesViewModel: Sendable {
    let titles = Property(value: ["Pancakes", "Soup"])
    private let services: RecipeServices

    init(services: RecipeServices) { self.services = services }

    func open(_ index: Int) {
        services.navigator.push(RecipeViewModel(index: index), from: self)
    }
}

final class RecipeViewModel: Sendable {
    let index: Int
    init(index: Int) { self.index = index }
}

enum RecipeAddresses: AppAddresses {
    typealias Services = RecipeServices

    static func stack(at address: Address, services: RecipeServices) -> [any AnyObject & Sendable]? {
        let list = RecipesViewModel(services: services)
        if address.path.isEmpty { return [list] }
        guard address.path.count == 2, address.path[0] == "recipe", let index = Int(address.path[1]) else { return nil }
        return [list, RecipeViewModel(index: index)]
    }

    static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is RecipesViewModel: return Address()
        case let recipe as RecipeViewModel: return Address(["recipe", String(recipe.index)])
        default: return nil
        }
    }
}

func recipeSessions() -> WebSessions {
    WebSessions(addresses: RecipeAddresses.self, servicesPerTab: { tab in
        RecipeServices(navigator: tab.navigator)
    }) { screens in
        screens.register(RecipesViewModel.self, described: { viewModel in
            Screen("Recipes") {
                List("Recipes",
                     rows: viewModel.titles.live.map { titles in
                         titles.enumerated().map { ListRow(id: String($0.offset), title: $0.element) }
                     },
                     emptyText: "No recipes.",
                     rowButtons: [RowButton("Open", shortcut: .control("o")) { id in Int(id).map(viewModel.open) }])
            }
        })
        screens.register(RecipeViewModel.self, described: { viewModel in
            Screen("Recipe") { Text("Recipe number \(viewModel.index)") }
        })
    }
}

// The section "An app with addresses": a deep link opens its stack, and Open pushes the recipe.
@MainActor @Suite struct RecipeArticleTests {
    @Test func aDeepLinkOpensTheRecipeOverTheList() throws {
        let sessions = recipeSessions()
        defer { sessions.closeAll() }   // a tab's navigator and view models hold each other until closed
        guard case .opened(let session) = sessions.open(at: try #require(WebLocation("/recipe/1"))) else {
            Issue.record("/recipe/1 opened no session")
            return
        }
        session.document.flush()
        #expect(session.document.bodyHTML.contains("Recipe number 1"))
        #expect(session.document.sentLocations == ["/", "/recipe/1"])
        if case .notFound = sessions.open(at: try #require(WebLocation("/recipe/x"))) {} else {
            Issue.record("/recipe/x opened a session")
        }
    }

    @Test func openOnARowPushesTheRecipeAndItsAddress() throws {
        let sessions = recipeSessions()
        defer { sessions.closeAll() }
        guard case .opened(let session) = sessions.open(at: .root) else {
            Issue.record("/ opened no session")
            return
        }
        let token = session.connect(send: { _ in })
        session.receive(#"{"t":"hello","s":"\#(session.id)","q":0}"#, token: token)
        session.document.flush()
        #expect(session.document.sentLocations == ["/"])
        // The second row's Open (Soup, index 1).
        let opens = session.document.bodyHTML.matches(of: /<button id="(e\d+)"[^>]*>Open</)
        try #require(opens.count == 2)
        session.receive(#"{"t":"c","id":"\#(opens[1].1)","n":1}"#, token: token)
        session.document.flush()
        #expect(session.document.bodyHTML.contains("Recipe number 1"))
        #expect(session.document.sentLocations == ["/", "/recipe/1"])
    }
}
