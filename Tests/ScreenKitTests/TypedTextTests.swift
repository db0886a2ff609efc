import MVVM
import ScreenKit
import ScreenTesting
import Signals
import Testing
import TerminalUI
import WebUI

/// T-UI2 (a field's two-way binding): a screen described once takes a paste the same way wherever it is drawn: the headless
/// tester, the terminal's field and the browser's field all hand the view model
/// `TypedText.cleaned` of what was pasted (terminal colours, titles and hyperlinks dropped whole,
/// a Tab as a space, other controls dropped). The browser's field once kept a pasted escape
/// sequence that the terminal's dropped.
@MainActor
@Suite struct TypedTextTests {
    final class NoteViewModel: Sendable {
        let note = MutableProperty("")
    }

    static func screen(_ viewModel: NoteViewModel) -> Screen {
        Screen("Note") {
            TextField("Note", text: viewModel.note)
        }
    }

    /// Pieces of a paste: words, text that looks like the inside of a sequence, whole sequences,
    /// controls, and sequences cut short.
    static let pieces = [
        "milk", " shake", "café", "[31m", "0;1", "]", "\\", "👩‍👩‍👧", "e\u{301}",
        "\u{1B}[31m", "\u{1B}[0m", "\u{1B}[1;38;5;208m", "\u{9B}2J",
        "\u{1B}]0;title\u{7}", "\u{1B}]8;;https://x.example\u{1B}\\", "\u{1B}P1$r\u{1B}\\", "\u{9D}0;t\u{9C}",
        "\t", "\u{7}", "\u{0}", "\u{85}", "\u{1B}", "\u{1B}[12", "\u{1B}]0;cut",
        "\u{202E}", "\u{202C}", "\u{2066}", "\u{2069}", "\u{200F}", "שלום",
    ]

    /// What each layer's field ends up holding after `paste` replaced its text.
    func layers(_ paste: String) throws -> (tester: String, terminal: String, browser: String) {
        let viewModel = NoteViewModel()
        let navigator = Navigator(root: viewModel)
        defer { navigator.close() }
        let registry = ScreenRegistry<Screen>()
        registry.register(NoteViewModel.self, Self.screen)
        let tester = ScreenTester(navigator: navigator, registry: registry)
        try tester.type(paste, into: "Note")
        let typed = viewModel.note.value

        let terminalModel = NoteViewModel()
        let terminalNavigator = Navigator(root: terminalModel)
        defer { terminalNavigator.close() }
        let terminalRegistry = ScreenRegistry<TerminalUI.NavigationStack.Page>()
        terminalRegistry.register(NoteViewModel.self, described: Self.screen)
        let stack = TerminalUI.NavigationStack()
        stack.bind(to: terminalNavigator, registry: terminalRegistry)
        let app = TerminalApp(screen: TerminalScreen(stack), device: InMemoryTerminal(size: Size(width: 60, height: 16)))
        app.drawNow()
        app.handle([.control("u"), .paste(paste)])

        let browserModel = NoteViewModel()
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: Self.screen(browserModel)).content])
        _ = document.render()
        let field = try #require(document.root.first(WebUI.TextField.self))
        try document.handle(.event(id: field.id, .input(paste), sequence: 1))
        #expect(field.value == browserModel.note.value, "the browser's field shows what the view model holds")
        return (typed, terminalModel.note.value, browserModel.note.value)
    }

    @Test func examples() throws {
        let pasted = "milk\u{1B}[31m shake\u{1B}[0m\t\u{1B}]8;;https://x.example\u{1B}\\link\u{1B}]8;;\u{1B}\\"
        let result = try layers(pasted)
        #expect(result.tester == "milk shake link")
        #expect(result.terminal == "milk shake link")
        #expect(result.browser == "milk shake link")
        // Issue 43: a bidi override in a title turns the rest of its line around (Trojan
        // Source); it goes, and so do the isolates; right-to-left letters and marks stay.
        let spoof = try layers("invoice\u{202E}fdp.exe\u{202C} \u{2067}שלום\u{2069}\u{200F}")
        #expect(spoof.tester == "invoicefdp.exe שלום\u{200F}")
        #expect(spoof.terminal == spoof.tester && spoof.browser == spoof.tester)
    }

    @Test func generatedPastesGiveTheSameTextInEveryLayer() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let paste = (0..<Int.random(in: 1...8, using: &generator))
                .map { _ in Self.pieces.randomElement(using: &generator)! }
                .joined()
            let result = try layers(paste)
            let expected = TypedText.cleaned(paste)
            #expect(result.tester == expected, "tester: \(paste.debugDescription)")
            #expect(result.terminal == expected, "terminal: \(paste.debugDescription)")
            #expect(result.browser == expected, "browser: \(paste.debugDescription)")
            #expect(!expected.unicodeScalars.contains { $0.properties.generalCategory == .control })
            #expect(!expected.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        }
    }
}
