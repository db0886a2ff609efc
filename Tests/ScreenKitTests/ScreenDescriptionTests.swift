import MVVM
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 25: a screen is a value. Building one subscribes to nothing; a renderer reads it now or
/// follows it; the builder reads like a SwiftUI body.
@Suite struct ScreenDescriptionTests {
    final class SearchViewModel: Sendable {
        let query = MutableProperty("")
        let count = MutableProperty(0)
        let isSearching = MutableProperty(false)
        let results = MutableProperty<[String]>([])
        let selected = Locked<[Int]>([])
        let search: Action<Void, Int, Never>

        init() {
            let count = self.count
            search = Action { _ in
                count.value = 3
                return .just(3)
            }
        }
    }

    static func screen(_ viewModel: SearchViewModel, showHint: Bool) -> Screen {
        Screen(title: viewModel.query.live.map { $0.isEmpty ? "Search" : $0 }) {
            HStack {
                TextField("Search", text: viewModel.query, placeholder: "more than 3 characters")
                Button("Go", action: viewModel.search)
            }
            Spinner("Searching…", isActive: viewModel.isSearching)
            Text(viewModel.count.live.map { "\($0) results" })
            if showHint { Text("Enter searches too.", style: .secondary) }
            Section("Results") {
                List("Results", rows: viewModel.results.live.map { $0.enumerated().map { ListRow(id: "\($0.offset)", title: $0.element) } },
                     emptyText: Live.constant("Nothing yet"),
                     onSelect: { index in viewModel.selected.withLock { $0.append(index) } })
            }
            for word in ["a", "b"] { Text(word) }
        }
    }

    /// A constant stays one through `map` (renderers keep no subscription for it); a value
    /// that follows a property never is, nor is one combined with it.
    @Test func aConstantStaysOneThroughMap() {
        let constant = Live.constant(2)
        #expect(constant.isConstant && constant.map { $0 * 3 }.isConstant && constant.map { $0 * 3 }.value == 6)
        let property = MutableProperty(1)
        let following = Live(property)
        #expect(!following.isConstant && !following.map { $0 + 1 }.isConstant && !constant.combine(following, +).isConstant)
        property.value = 5
        #expect(constant.combine(following, +).value == 7)
    }

    @Test func buildingAScreenSubscribesToNothing() {
        let subscriptions = Locked(0)
        let counted = Signal<String, Never>.deferred {
            subscriptions.withLock { $0 += 1 }
            return .just("now")
        }
        let live = Live(read: { "now" }, signal: counted).map { $0.uppercased() }
        let screen = Screen("Counted") {
            Text(live)
            Text(live.map { $0 + "!" }).visible(when: Live.constant(true))
        }
        #expect(subscriptions.value == 0, "a description is a value: nothing subscribed")
        #expect(PlainText.render(screen) == "Counted\n=======\nNOW\nNOW!")
        #expect(subscriptions.value == 0, "reading draws the values now, without subscribing")
        let followed = screen.content[0]
        guard let text = followed.kind as? ScreenKit.Text else { Issue.record("not a text"); return }
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: text.value.signal)
        #expect(subscriptions.value == 1, "a renderer that follows the value subscribes")
        #expect(recorder.recordedValues == ["NOW"])
    }

    @Test func theBuilderTakesConditionsLoopsAndContainers() {
        let viewModel = SearchViewModel()
        let with = Self.screen(viewModel, showHint: true)
        let without = Self.screen(viewModel, showHint: false)
        #expect(with.content.count == without.content.count + 1)
        #expect(with.allElements.map(\.role) == [.stack, .field, .button, .spinner, .text, .text, .section, .list, .text, .text])
        #expect(PlainText.render(with) == """
            Search
            ======
            Search: (more than 3 characters)  [Go]
            0 results
            Enter searches too.
            Results:
              Nothing yet
            a
            b
            """)
    }

    @Test func plainTextFollowsTheViewModel() {
        let viewModel = SearchViewModel()
        let screen = Self.screen(viewModel, showHint: false)
        viewModel.query.value = "sunset"
        viewModel.isSearching.value = true
        viewModel.results.value = ["Red sky", "Dusk"]
        #expect(PlainText.render(screen) == """
            sunset
            ======
            Search: sunset  [Go]
            ⋯ Searching…
            0 results
            Results:
              - Red sky
              - Dusk
            a
            b
            """)
    }

    @MainActor @Test func theTesterTypesPressesSelectsAndReads() throws {
        let viewModel = SearchViewModel()
        let navigator = Navigator(root: viewModel)
        defer { navigator.close() }
        let registry = ScreenRegistry<Screen>()
        registry.register(SearchViewModel.self) { Self.screen($0, showHint: false) }
        let tester = ScreenTester(navigator: navigator, registry: registry)
        try tester.type("sunset", into: "Search")
        #expect(viewModel.query.value == "sunset")
        #expect(tester.title == "sunset")
        try tester.press("Go")
        #expect(tester.contains("3 results"))
        viewModel.results.value = ["Red sky", "Dusk"]
        try tester.select("Dusk")
        #expect(viewModel.selected.value == [1])
        #expect(throws: ScreenDriverError.self) { try tester.press("Stop") }
        let hidden = try tester.elements(.spinner)
        #expect(hidden.isEmpty, "a spinner that is not spinning is not on screen")
    }

    /// What a screen shows comes from users and services; printed as plain text it must not
    /// drive the terminal: escapes, bells and other controls are dropped, a Tab is a space, and
    /// a newline inside a value cannot break the screen's lines.
    @Test func plainTextNeverPrintsControlCharacters() {
        let field = MutableProperty("sun\u{1B}]0;pwned\u{07}set\u{1B}[2J")
        let screen = Screen("Title\u{9B}31m") {
            TextField("Search", text: field)
            Text("a\tb\u{7F}")
            List("Rows", rows: Live.constant([ListRow(id: "1", title: "one\ntwo")]))
        }
        let text = PlainText.render(screen)
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        #expect(text.contains("Search: sun]0;pwnedset[2J"))
        #expect(text.contains("a b"))
        #expect(text.contains("- onetwo"))
        #expect(text.split(separator: "\n").count == 5, "one line each: title, rule, field, text, row")
    }
}
