import LiveHTTP
import MVVM
import ShowcaseKit
import Signals
import Testing
import TerminalUI

/// T-BEYOND3: the showcase's MVVM apps, their view models bound to TerminalUI screens, on an
/// in-memory terminal (the tmux end-to-end tests drive the binary on a real Linux terminal).
@MainActor @Suite struct InteractiveShowcaseTests {
    @Test func launcherListsEveryAppAndOpensOne() {
        let showcase = InteractiveShowcase(app: nil, live: false, environment: Environment([:]))
        defer { showcase.navigator.close() }
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30))
        let app = TerminalApp(screen: showcase.screen, device: terminal)
        app.drawNow()
        for title in ShowcaseApp.allCases.map(\.title) { #expect(terminal.text.contains(title)) }
        app.handle([.down, .down, .enter])
        app.drawNow()
        #expect(terminal.line(0).hasSuffix("Login"))
        app.handle([.escape])
        app.drawNow()
        #expect(terminal.line(0) == "MVVMKit showcase")
    }

    @Test func liveModeWithoutAKeyOffersToContinueOffline() {
        let showcase = InteractiveShowcase(app: .flickr, live: true, environment: Environment([:]))
        defer { showcase.navigator.close() }
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30))
        let app = TerminalApp(screen: showcase.screen, device: terminal)
        app.drawNow()
        #expect(terminal.text.contains("Live mode needs an API key"))
        #expect(terminal.text.contains("FLICKR_API_KEY"))
        #expect(terminal.text.contains("[ Continue offline ]"))
        app.handle([.enter])
        app.drawNow()
        #expect(terminal.text.contains("Flickr Search"))
        #expect(!terminal.text.contains("Live mode needs"))
    }
}
