import MVVM
import ScreenKit
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 43: a list fed by a PagedList shows, in the terminal and in the browser, a loading row
/// while a page is on its way and a failed row that asks again; the app writes none of it.
@MainActor
@Suite struct PagedListRowsTests {
    struct Offline: Error, CustomStringConvertible { var description: String { "the library is offline" } }
    final class Shelf: Sendable {
        let list: PagedList<String, String, Offline>
        init(list: PagedList<String, String, Offline>) { self.list = list }
    }

    /// Ten books a page, three pages; the second fails while `failing` holds.
    func books(failing: Locked<Bool>) -> PagedList<String, String, Offline> {
        let list = PagedList<String, String, Offline>(pageSize: 10) { query, page, _ in
            if page == 2 && failing.withLock({ $0 }) { return .fail(Offline()) }
            return .just((0..<(page == 3 ? 5 : 10)).map { "\(query) \(page)-\($0)" })
        }
        list.load(key: "rivers")
        return list
    }

    func screen(_ list: PagedList<String, String, Offline>) -> ScreenKit.Screen {
        ScreenKit.Screen("Books") {
            ScreenKit.List("Books", paged: list, row: { ListRow(id: $0, title: $0) })
        }
    }

    @Test func theTerminalShowsTheFailureUnderTheRowsAndEnterThereAsksAgain() {
        let failing = Locked(true)
        let list = books(failing: failing)
        let stack = TerminalUI.NavigationStack()
        stack.push(TerminalUI.ScreenRenderer.page(for: screen(list)))
        let terminal = InMemoryTerminal(size: Size(width: 70, height: 12))
        let app = TerminalApp(screen: TerminalScreen(stack), device: terminal)
        app.drawNow()
        #expect(list.items.value.count == 10 && !terminal.text.contains("Could not load"))
        app.handle([.end])                        // the last row comes on screen: page 2 fails
        app.drawNow()
        #expect(terminal.text.contains("Could not load: the library is offline (Enter: try again)"), "\(terminal.text)")
        failing.withLock { $0 = false }
        app.handle([.down, .enter])               // onto the failed row, and try again
        app.drawNow()
        #expect(list.items.value.count == 20 && !terminal.text.contains("Could not load"), "\(terminal.text)")
    }

    @Test func theBrowserShowsTheFailureWithTryAgain() throws {
        let failing = Locked(true)
        let list = books(failing: failing)
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: screen(list)).content])
        let view = try #require(Self.first(WebUI.ListView.self, in: document.root))
        try document.handle(ClientMessage.parse(#"{"t":"e","id":"\#(view.id)","n":1}"#))
        let html = document.render().html
        #expect(html.contains("Could not load: the library is offline") && html.contains(">Try again</button>"), "\(html)")
        failing.withLock { $0 = false }
        let retry = try #require(Self.all(WebUI.Button.self, in: document.root).first { $0.text == "Try again" })
        try document.handle(ClientMessage.parse(#"{"t":"c","id":"\#(retry.id)","n":2}"#))
        #expect(list.items.value.count == 20)
        #expect(!document.render().html.contains("Could not load"))
    }

    /// The tester's `retry(in:)`: refused while nothing failed, then asks for the failed page.
    @Test func theTesterTriesAFailedPageAgain() throws {
        let failing = Locked(true)
        let list = books(failing: failing)
        let navigator = Navigator(root: Shelf(list: list))
        defer { navigator.close() }
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Shelf.self) { [self] in screen($0.list) }
        let driver = ScreenDriver(navigator: navigator, registry: registry)
        #expect(throws: ScreenDriverError.self) { try driver.retry(in: "Books") }
        try driver.scrollToEnd(of: "Books")
        #expect(driver.text.contains("! Could not load: the library is offline"), "\(driver.text)")
        failing.withLock { $0 = false }
        try driver.retry(in: "Books")
        #expect(list.items.value.count == 20 && !driver.text.contains("Could not load"))
    }

    /// A page on its way: a loading row under the rows in both layers, gone once it answered;
    /// a failure wins over it.
    @Test func aLoadingRowWhileAPageIsOnItsWay() throws {
        let loading = MutableProperty(true), failure = MutableProperty<String?>(nil)
        let screen = ScreenKit.Screen("Books") {
            ScreenKit.List("Books", rows: Live.constant([ListRow(id: "1", title: "Rivers")]), isLoading: loading, failure: failure)
        }
        let (app, terminal, document) = Self.inBothLayers(screen)
        app.drawNow()
        #expect(terminal.text.contains("Loading…") && document.render().html.contains(">Loading…<"), "\(terminal.text)")
        failure.value = "offline"
        app.drawNow()
        #expect(terminal.text.contains("Could not load: offline") && !terminal.text.contains("Loading…"))
        #expect(document.render().html.contains("Could not load: offline"))
        failure.value = nil
        loading.value = false
        app.drawNow()
        #expect(!terminal.text.contains("Loading…") && !terminal.text.contains("Could not load"))
        #expect(!document.render().html.contains("Could not load"))
    }

    /// The end marker (`ending(with:)`), in every layer, in each of the 16 states of rows (none
    /// or some) × more to come × a page loading × a page failed, reached from every other state:
    /// it shows exactly when the list has rows, none is loading, none failed and none is left.
    @Test func theEndMarkerShowsOnlyOnceEveryRowIsThere() throws {
        let rows = MutableProperty<[ListRow]>([]), hasMore = MutableProperty(false)
        let loading = MutableProperty(false), failure = MutableProperty<String?>(nil)
        let list = ScreenKit.List("Books", rows: rows, emptyText: Live.constant("No books."), isLoading: loading, hasMore: hasMore, failure: failure)
            .ending(with: "— the last book —")
        let screen = ScreenKit.Screen("Books") { list }
        let (app, terminal, document) = Self.inBothLayers(screen)
        let states = (0..<16).map { ($0 & 1 != 0, $0 & 2 != 0, $0 & 4 != 0, $0 & 8 != 0) }
        for from in states {
            for to in states {
                for (someRows, more, isLoading, failed) in [from, to] {
                    rows.value = someRows ? [ListRow(id: "1", title: "Rivers")] : []
                    hasMore.value = more
                    loading.value = isLoading
                    failure.value = failed ? "offline" : nil
                }
                let (someRows, more, isLoading, failed) = to
                let atEnd = someRows && !more && !isLoading && !failed
                let expected: ListFooter? = failed ? .failed("offline") : isLoading ? .loading : atEnd ? .end("— the last book —") : nil
                #expect(list.footer?.value == expected, "\(from) → \(to)")
                app.drawNow()
                let html = document.render().html
                let plain = PlainText.render(screen)
                #expect(terminal.text.contains("— the last book —") == atEnd, "terminal, \(from) → \(to)")
                #expect(html.contains(">— the last book —<") == atEnd, "browser, \(from) → \(to)")
                #expect(html.contains("end-marker") == atEnd, "browser's class, \(from) → \(to)")
                #expect(plain.contains("— the last book —") == atEnd, "plain text, \(from) → \(to)")
            }
        }
    }

    /// A list without an end marker has no footer to follow when nothing else can change.
    @Test func aListWithoutAnEndMarkerFollowsNothing() {
        let list = ScreenKit.List("Books", rows: Live.constant([ListRow(id: "1", title: "Rivers")]))
        #expect(list.footer == nil)
        #expect(list.ending(with: "").footer == nil)
        #expect(list.ending(with: "— end —").footer?.value == .end("— end —"))
    }

    /// `screen` in a 60×14 terminal and in a browser's document (flushed by hand).
    static func inBothLayers(_ screen: ScreenKit.Screen) -> (TerminalApp, InMemoryTerminal, Document) {
        let stack = TerminalUI.NavigationStack()
        stack.push(TerminalUI.ScreenRenderer.page(for: screen))
        let terminal = InMemoryTerminal(size: Size(width: 60, height: 14))
        let app = TerminalApp(screen: TerminalScreen(stack), device: terminal)
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: screen).content])
        return (app, terminal, document)
    }

    static func all<T: WebUI.Element>(_ type: T.Type, in element: WebUI.Element) -> [T] {
        ([element as? T].compactMap { $0 }) + element.children.flatMap { all(type, in: $0) }
    }

    static func first<T: WebUI.Element>(_ type: T.Type, in element: WebUI.Element) -> T? {
        all(type, in: element).first
    }
}
