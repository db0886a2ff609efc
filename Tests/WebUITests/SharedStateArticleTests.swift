import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing
import WebUITestSupport
@testable import WebUI

// The code of 'Sharing state between tabs' (Sources/WebUI/WebUI.docc/SharingStateBetweenTabs.md),
// compiled and run (issue 32): the sessions here, the store and the screen in
// SharedStateArticleScreen.swift; the last test checks that every swift block of the article is
// in one of the two files.

@MainActor
func shoppingSessions(shared: SharedShoppingList) -> WebSessions {
    WebSessions { document in
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(ShoppingListViewModel.self, described: shoppingListScreen)
        return ShoppingTab(document: document, registry: registry, viewModel: ShoppingListViewModel(shared: shared))
    }
}

/// One tab: its navigator and the stack that shows the list's screen.
final class ShoppingTab: WebSessionContent {
    let navigator: Navigator
    let stack = NavigationStack()

    init(document: Document, registry: ScreenRegistry<NavigationStack.Page>, viewModel: ShoppingListViewModel) {
        navigator = Navigator(root: viewModel)
        document.root.setChildren([stack])
        stack.bind(to: navigator, registry: registry)
    }

    func close() { navigator.close() }
}

@MainActor
@Suite struct SharedStateArticleTests {
    /// One tab of the sessions, in memory: its session, its page as the browser has it.
    @MainActor
    final class Tab {
        let session: WebSession
        let sent = Locked<[String]>([])
        let token: Int
        var sequence = 0

        init(_ sessions: WebSessions) throws {
            guard case .opened(let session) = sessions.open(at: WebLocation("/")!) else { throw CancellationError() }
            self.session = session
            let (_, frame) = session.document.render()
            let sent = self.sent
            token = session.connect(send: { text in sent.withLock { $0.append(text) } })
            session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(frame)}"#, token: token)
        }

        func send(_ json: String) {
            sequence += 1
            session.receive(String(json.dropLast()) + #","n":\#(sequence)}"#, token: token)
            session.document.flush()
        }

        /// The frames the page received since the last call.
        func frames() -> String {
            session.document.flush()
            return sent.withLock { frames in defer { frames = [] }; return frames.joined(separator: "\n") }
        }

        func first<T: Element>(_ type: T.Type) -> T? { session.document.root.first(type) }
    }

    /// What one tab adds and removes, the other tab's page receives at once.
    @Test func twoTabsShowOneList() throws {
        let shared = SharedShoppingList()
        let sessions = shoppingSessions(shared: shared)
        let first = try Tab(sessions), second = try Tab(sessions)
        defer { first.session.close(); second.session.close() }
        _ = second.frames()
        let field = try #require(first.first(TextField.self))
        first.send(#"{"t":"i","id":"\#(field.id)","v":"Milk"}"#)
        first.send(#"{"t":"s","id":"\#(field.id)"}"#)
        #expect(shared.items.value == ["Milk"])
        #expect(second.frames().contains("Milk"))
        #expect(second.first(ListView.self)?.rows.map(\.title) == ["Milk"])
        let row = try #require(second.first(ListView.self)?.children[1].children.first)
        let remove = try #require(row.children.first { $0.tag == "button" })
        second.send(#"{"t":"c","id":"\#(remove.id)"}"#)
        #expect(shared.items.value.isEmpty)
        let frames = first.frames()
        #expect(frames.contains("Milk") && frames.contains(#"["-","#), "\(frames)")
        #expect(first.first(ListView.self)?.rows.isEmpty == true)
    }

    /// Adds from many threads at once (tabs, background tasks): `modify` loses none.
    @Test func addsFromManyThreadsAreAllKept() async {
        for _ in 0..<20 {
            let shared = SharedShoppingList()
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<4 {
                    group.addTask { for number in 0..<250 { shared.add("\(thread)-\(number)") } }
                }
            }
            #expect(shared.items.value.count == 1000)
            #expect(Set(shared.items.value).count == 1000)
        }
    }

    @Test func articleCodeIsThisFile() throws {
        let (count, missing) = try ArticleCode.blocksMissing(from: ["Tests/WebUITests/SharedStateArticleTests.swift", "Tests/WebUITests/SharedStateArticleScreen.swift"], article: "Sources/WebUI/WebUI.docc/SharingStateBetweenTabs.md")
        #expect(count == 3)
        for block in missing {
            Issue.record("this block of SharingStateBetweenTabs.md is in none of SharedStateArticleTests.swift, SharedStateArticleScreen.swift:\n\(block)")
        }
    }
}
