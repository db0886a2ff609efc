import Dispatch
import Foundation
import MVVM
import ScreenKit
import ShowcaseCore
import Signals
import SignalsTesting
import Testing
import TerminalUI
import WebUI

/// Issue 43: every screen of every app, drawn by each renderer (plain text, the terminal, the
/// browser's document), shows what its description shows: the same labels, values and enabled
/// states, and, in the two layers that take keys, the screen's own hint.
@MainActor @Suite struct RenderersAgreeTests {
    /// One thing a screen shows.
    struct Shown: Hashable, CustomStringConvertible {
        enum Kind: String { case text, label, value, button, toggle, option, row, heading, tab, fact, hint }
        let kind: Kind
        let text: String
        /// For a button or a toggle: whether it can be used.
        var isEnabled: Bool?
        /// What may stand in its place: a field in a row shows its placeholder, not its label
        /// (the browser keeps the label as the field's accessible name).
        var or: String?

        var description: String { "\(kind.rawValue) \(text.debugDescription)" + (isEnabled.map { $0 ? "" : " (disabled)" } ?? "") }
    }

    /// What the description shows now: the model every renderer is held to.
    static func shown(_ screen: ScreenKit.Screen) -> [Shown] {
        var out: [Shown] = []
        for element in screen.content.flatMap(\.shown) {
            switch element.kind {
            case let text as ScreenKit.Text:
                out.append(Shown(kind: .text, text: text.value.value))
            case let field as ScreenKit.TextField:
                out.append(Shown(kind: .label, text: field.label, or: field.placeholder.isEmpty ? nil : field.placeholder))
                if !field.isSecure { out.append(Shown(kind: .value, text: field.text.value)) }
            case let button as ScreenKit.Button:
                out.append(Shown(kind: .button, text: button.title.value, isEnabled: button.isEnabled.value && !button.isBusy.value))
            case let toggle as ScreenKit.Toggle:
                out.append(Shown(kind: .toggle, text: toggle.label, isEnabled: toggle.isEnabled.value))
            case let choice as ScreenKit.Choice:
                out.append(Shown(kind: .label, text: choice.label))
                if choice.options.indices.contains(choice.selection.value) { out.append(Shown(kind: .option, text: choice.options[choice.selection.value])) }
            case let list as ScreenKit.List:
                let rows = list.rows.value
                out += rows.prefix(5).map { Shown(kind: .row, text: $0.title) }
                if rows.isEmpty { out.append(Shown(kind: .text, text: list.emptyText.value)) }
            case let section as ScreenKit.Section:
                out.append(Shown(kind: .heading, text: section.title))
            case let tabs as ScreenKit.Tabs:
                out += tabs.tabs.map { Shown(kind: .tab, text: $0.title) }
            case let facts as ScreenKit.Facts:
                for fact in facts.facts where !fact.value.value.isEmpty {
                    out += [Shown(kind: .fact, text: fact.label), Shown(kind: .fact, text: fact.value.value)]
                }
            default:
                break
            }
        }
        if let hint = screen.hint { out.append(Shown(kind: .hint, text: hint)) }
        return out.filter { !$0.text.isEmpty }
    }

    /// Runs of white space as one space (layers pad and wrap differently).
    static func words(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The text of an HTML document, tags left out and the five entities read back.
    static func text(ofHTML html: String) -> String {
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true; out.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { out.append(character) }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: character)
        }
        return out
    }

    func mainQueueTurn() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    /// What each layer got wrong on the screen at `address` (after `options` beyond it, as the
    /// command line's: a sign-in), one line each; `drawn` gets the view model's type.
    func disagreements(
        at text: String, options: ShowcaseOptions? = nil, drawn types: inout Set<String>, classes: inout Set<String>
    ) async throws -> [String] {
        let address = try #require(ShowcaseAddressTests.parse(text))
        let route = try #require(ShowcaseAddresses.route(address))
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let navigator = Navigator()
        defer { navigator.close() }
        let factory = ServiceFactory(mode: .offline, scheduler: scheduler, navigator: navigator)
        if let app = route.app {
            navigator.push(all: try #require(try ShowcaseAddresses.stack(of: app, at: route.address, factory: factory)))
        } else {
            navigator.push(LauncherViewModel(open: { _ in }))
        }
        func settle() async {
            for _ in 0..<12 {
                scheduler.advance(by: .seconds(1))
                await mainQueueTurn()
            }
        }
        await settle()
        if let options, let app = route.app {
            try app.finish(options, on: navigator.top)
            await settle()
        }
        let top = try #require(navigator.top)
        types.insert(String(describing: type(of: top)))
        let registry = ShowcaseScreens.registry()
        let screen = try registry.screen(for: top)

        // The terminal: the page on a wide in-memory terminal.
        let stack = TerminalUI.NavigationStack()
        stack.push(TerminalUI.ScreenRenderer.page(for: screen))
        let terminal = InMemoryTerminal(size: Size(width: 220, height: 80))
        let terminalApp = TerminalApp(screen: TerminalScreen(stack), device: terminal)
        // The browser: the page's document.
        let document = Document()
        document.flushesAutomatically = false
        let page = WebUI.ScreenRenderer.page(for: screen)
        document.root.setChildren([page.content])
        await settle()
        // A list whose last row is on screen asks for more when drawn (a short page): drawn
        // and settled until nothing more loads, so every layer is read in the same state.
        for _ in 0..<4 {
            terminalApp.drawNow()
            await settle()
        }
        terminalApp.drawNow()
        let plain = Self.words(PlainText.render(screen))
        let drawn = Self.words(terminal.text)
        let html = document.render().html
        classes.formUnion(Self.classes(inHTML: html))
        let browser = Self.words(Self.text(ofHTML: html))
        let webButtons = Self.all(WebUI.Button.self, in: document.root)
        // A field's value is an attribute, not text: read from the fields.
        let webFields = Self.all(WebUI.TextField.self, in: document.root)
        let webValues = webFields.map { Self.words($0.value) }
        // A field in a row is named by its accessible name and its placeholder (attributes).
        let webNames = webFields.flatMap { [$0.attribute("aria-label"), $0.attribute("placeholder")].compactMap { $0 } }

        var wrong: [String] = []
        for shown in Self.shown(screen) {
            let words = Self.words(shown.text)
            let or = shown.or.map(Self.words)
            func shows(_ layer: String) -> Bool { layer.contains(words) || or.map(layer.contains) == true }
            if shown.kind != .hint && !shows(plain) { wrong.append("\(text): plain text lacks \(shown)") }
            if !shows(drawn) { wrong.append("\(text): the terminal lacks \(shown)") }
            let inBrowser = switch shown.kind {
            case .value: webValues.contains(words)
            case .label: shows(browser) || webNames.contains(words)
            // The browser's hint is the terminal's but for the parts only a terminal's keys do.
            case .hint: screen.hintOutsideTerminal.map { browser.contains(Self.words($0)) } ?? true
            default: shows(browser)
            }
            if !inBrowser { wrong.append("\(text): the browser lacks \(shown)") }
            if shown.kind == .hint {
                for part in screen.hints where part.isTerminalOnly && browser.contains(Self.words(part.text)) {
                    wrong.append("\(text): the browser names a key only a terminal has: \(part.text)")
                }
            }
            guard shown.kind == .button, let enabled = shown.isEnabled else { continue }
            if plain.contains("[\(words)] (disabled)") == enabled { wrong.append("\(text): plain text draws \(shown) \(enabled ? "disabled" : "enabled")") }
            if let button = webButtons.first(where: { Self.words($0.text) == words }), button.isEnabled != enabled {
                wrong.append("\(text): the browser draws \(shown) \(button.isEnabled ? "enabled" : "disabled")")
            }
            if let dim = Self.isDim(words, in: terminal), dim == enabled {
                wrong.append("\(text): the terminal draws \(shown) \(dim ? "disabled" : "enabled")")
            }
        }
        return wrong
    }

    static func all<T: WebUI.Element>(_ type: T.Type, in element: WebUI.Element) -> [T] {
        var found: [T] = []
        func walk(_ element: WebUI.Element) {
            if let match = element as? T, !match.isHidden { found.append(match) }
            element.children.forEach(walk)
        }
        walk(element)
        return found
    }

    /// Whether the first place `text` is drawn is dim (a disabled button); `nil` if not found.
    static func isDim(_ text: String, in terminal: InMemoryTerminal) -> Bool? {
        let grid = terminal.grid
        for y in 0..<terminal.size.height {
            let line = terminal.line(y)
            guard let range = line.range(of: "[\(text)]") ?? line.range(of: " \(text) ") else { continue }
            let x = line.distance(from: line.startIndex, to: range.lowerBound) + 1
            guard x < grid.size.width else { return nil }
            return grid[x, y].style.dim
        }
        return nil
    }

    /// Every screen of every app (each address of ``ShowcaseAddressTests/samples``, and the
    /// launcher's), in every layer.
    @Test func everyScreenShowsTheSameInEveryRenderer() async throws {
        var wrong: [String] = []
        var drawn: Set<String> = [], classes: Set<String> = []
        for sample in ["/"] + ShowcaseAddressTests.samples.map(\.address) {
            wrong += try await disagreements(at: sample, drawn: &drawn, classes: &classes)
        }
        // The welcome screen: signed in, as `--password` does.
        wrong += try await disagreements(
            at: "/login?user=ada", options: ShowcaseOptions(user: "ada", password: "lovelace"), drawn: &drawn, classes: &classes)
        let registered = Set(ShowcaseScreens.registry().viewModelTypes.map { String(describing: $0) })
        #expect(registered.subtracting(drawn).isEmpty, "screens no renderer was held to: \(registered.subtracting(drawn).sorted())")
        #expect(wrong.isEmpty, "\(wrong.count) disagreements:\n\(wrong.joined(separator: "\n"))")

        // Every class WebUI put on these screens (and on the page around them, and an alert)
        // is named in the article a web developer styles a page from.
        classes.formUnion(Self.classes(inHTML: PageShell.notFound()))
        let stack = WebUI.NavigationStack()
        stack.push(WebUI.NavigationStack.Page(title: "T", content: WebUI.Label("x")))
        let document = Document()
        document.root.setChildren([stack])
        document.present(title: "A", message: "B")
        // A row with everything a row can have (the samples' to-do list is empty).
        let list = WebUI.ListView(class: "photos")
        list.rows = [.init(key: "1", title: "Buy milk", detail: "today", image: "/i.png", checkbox: false, buttons: ["Delete"])]
        list.footer = .failed("offline")
        stack.push(WebUI.NavigationStack.Page(title: "L", content: list))
        classes.formUnion(Self.classes(inHTML: document.render().html))
        // The page around a session's document: its connection notice.
        final class Nothing: WebSessionContent { func close() {} }
        let session = try #require(WebSessions(log: { _ in }) { _ in Nothing() }.open())
        defer { session.close() }
        classes.formUnion(Self.classes(inHTML: PageShell.html(for: session)))
        let article = try String(contentsOfFile: Self.packageRoot + "/Sources/WebUI/WebUI.docc/StylingAPage.md", encoding: .utf8)
        let undocumented = classes.filter { !article.contains("`\($0)`") }
        #expect(classes.count > 30 && undocumented.isEmpty, "classes on the page that StylingAPage.md does not name: \(undocumented.sorted())")
    }

    /// Every class named in `html`'s `class` attributes.
    static func classes(inHTML html: String) -> Set<String> {
        Set(html.matches(of: /class="([^"]*)"/).flatMap { $0.output.1.split(separator: " ").map(String.init) })
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
}
