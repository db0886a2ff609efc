import MVVM
import PropertyBased
import ScreenKit
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: determinate progress and links to other sites, in every renderer. A progress
/// value is clamped to its range at both ends and its percentage rounded down (never 100%
/// before the work is done); a link opens only an http(s) address, in a new tab, with no way
/// back into the page; any other address is refused and says so.
@MainActor
@Suite struct ProgressAndLinkTests {
    /// The fraction at the exact boundaries, from both sides, and values out of range.
    @Test(arguments: [
        (-1.0, 0.0), (-0.0001, 0.0), (0.0, 0.0), (0.0001, 0.00001), (5.0, 0.5), (9.99, 0.999), (10.0, 1.0), (10.0001, 1.0), (1e9, 1.0),
        (Double.nan, 0.0), (Double.infinity, 1.0), (-Double.infinity, 0.0),
    ])
    func theFractionIsClampedToItsRange(value: Double, expected: Double) {
        let fraction = ProgressBar.fraction(of: value, total: 10)
        #expect(abs(fraction - expected) < 1e-12, "\(value) of 10 → \(fraction)")
    }

    @Test(arguments: [(0.0, "0%"), (0.009, "0%"), (0.01, "1%"), (0.5, "50%"), (0.999, "99%"), (0.99999, "99%"), (0.9999999999, "99%"), (1 - 1e-15, "99%"), (1.0, "100%")])
    func thePercentageIsRoundedDown(fraction: Double, expected: String) {
        #expect(ProgressBar.percent(fraction) == expected)
    }

    /// Whole amounts of work: `k` done of `total` shows exactly ⌊100·k / total⌋ percent and
    /// ⌊width·k / total⌋ cells, counted in integers (a `Double` alone showed 29 of 100 as 28%).
    @Test func wholeAmountsShowTheirExactShare() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1...2000), Gen.int(in: 0...2000), Gen.int(in: 1...40)) { total, done, width in
            let k = min(done, total)
            let fraction = ProgressBar.fraction(of: Double(k), total: Double(total))
            #expect(ProgressBar.percent(fraction) == "\(k * 100 / total)%", "\(k) of \(total)")
            #expect(ProgressBar.bar(fraction, width: width).filter { $0 == "#" }.count == k * width / total, "\(k) of \(total), \(width) cells")
        }
        for k in [29, 57, 58] {
            #expect(ProgressBar.percent(ProgressBar.fraction(of: Double(k), total: 100)) == "\(k)%")
        }
    }

    /// Any value: the bar has its width, its filled cells never exceed the fraction's share, and
    /// it is full exactly when the work is done.
    @Test func theBarIsFullOnlyWhenDone() async {
        await propertyCheck(input: Gen.double(in: -2...12), Gen.int(in: 1...40)) { value, width in
            let fraction = ProgressBar.fraction(of: value, total: 10)
            let bar = ProgressBar.bar(fraction, width: width)
            let filled = bar.filter { $0 == "#" }.count
            #expect(bar.count == width)
            #expect(Double(filled) <= fraction * Double(width) + 1e-9)
            #expect(filled < width || fraction == 1, "full before the work is done: \(value)")
            #expect(fraction < 1 || filled == width, "not full when done: \(value)")
            #expect((ProgressBar.percent(fraction) == "100%") == (value >= 10))
        }
    }

    final class Work: Sendable {
        let done = MutableProperty(0.0)
        var screen: ScreenKit.Screen {
            ScreenKit.Screen("Import") {
                ProgressBar("Importing", value: done, total: 200)
                Link("Help", destination: "https://example.com/help?q=import")
                Link("Run it", destination: "javascript:alert(1)")
            }
        }
    }

    @Test func everyRendererShowsTheProgressAndTheLinks() throws {
        let work = Work()
        // Plain text.
        #expect(PlainText.render(work.screen).contains("Importing: [--------------------] 0%"))
        work.done.value = 50
        let plain = PlainText.render(work.screen)
        #expect(plain.contains("Importing: [#####---------------] 25%"), "\(plain)")
        #expect(plain.contains("Help <https://example.com/help?q=import>") && plain.contains("Run it (\(Link.refusal))"), "\(plain)")
        // The browser.
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: work.screen).content
        document.root.setChildren([content])
        let bar = try #require(FormTests.all(content) { $0.tag == "progress" }.first)
        #expect(bar.attribute("aria-label") == "Importing" && bar.attribute("value") == "0.25" && bar.attribute("max") == "1")
        #expect(bar.attribute("aria-valuetext") == "25%")
        work.done.value = 300
        #expect(bar.attribute("value") == "1.0" && bar.attribute("aria-valuetext") == "100%", "clamped: \(bar.attribute("value") ?? "")")
        let html = document.render().html
        let anchor = try #require(FormTests.all(content) { $0.tag == "a" }.first)
        #expect(anchor.attribute("href") == "https://example.com/help?q=import" && anchor.attribute("target") == "_blank", "\(html)")
        #expect(anchor.attribute("rel") == "noopener noreferrer", "\(html)")
        #expect(!html.contains("javascript:") && html.contains("Run it (\(Link.refusal))"), "\(html)")
        // The terminal.
        let stack = TerminalUI.NavigationStack()
        stack.push(TerminalUI.ScreenRenderer.page(for: work.screen))
        let terminal = InMemoryTerminal(size: Size(width: 40, height: 12))
        let app = TerminalApp(screen: TerminalScreen(stack), device: terminal)
        work.done.value = 100
        app.drawNow()
        #expect(terminal.text.contains("Importing ██████████░░░░░░░░░░ 50%"), "\(terminal.text)")
        #expect(terminal.text.contains("Help ↗ https://example.com/help?q=import") && terminal.text.contains("Run it (not opened"), "\(terminal.text)")
    }

    /// Only http(s) with a host is opened; every other address, whatever its case or disguise,
    /// is refused (and never reaches a page's `href`).
    @Test(arguments: [
        ("https://example.com", true), ("http://example.com/a?b#c", true), ("HTTPS://Example.com", true), ("https://a", true),
        ("javascript:alert(1)", false), ("JavaScript:alert(1)", false), ("data:text/html,hi", false), ("file:///etc/passwd", false),
        ("ftp://example.com", false), ("//example.com", false), ("https://", false), ("https:///path", false), ("http:/example.com", false),
        (" https://example.com", false), ("https://exa mple.com", false), ("https://example.com\n", false), ("https://@example.com", false),
        ("", false), ("mailto:a@example.com", false),
        // What a paste brings that no one sees: a right-to-left override that turns the address
        // the person reads around, a zero-width space, a byte-order mark, a line separator.
        ("https://example.com/\u{202E}gpj.exe", false), ("https://exa\u{200B}mple.com", false), ("\u{FEFF}https://example.com", false),
        ("https://example.com/a\u{2028}b", false), ("https://例え.jp/パス", true), ("https://example.com/ü?q=é#ß", true),
    ])
    func onlyHttpAddressesAreOpened(address: String, opened: Bool) {
        let link = Link("L", destination: address)
        #expect((link.destination != nil) == opened, "\(address.debugDescription)")
        let html = WebUI.ScreenRenderer.element(for: link.element).html
        #expect(html.contains("href=") == opened, "\(html)")
    }
}
