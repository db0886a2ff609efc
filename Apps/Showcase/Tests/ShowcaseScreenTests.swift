import Dispatch
import LiveHTTP
import MVVM
import ShowcaseCore
import ShowcaseKit
import Signals
import Testing
import TerminalUI

/// The showcase on an in-memory terminal, its services answering on virtual time.
@MainActor
final class ShowcaseHarness {
    let scheduler = VirtualTimeScheduler()
    let showcase: InteractiveShowcase
    let terminal: InMemoryTerminal
    let app: TerminalApp

    init(_ choice: ShowcaseApp?, options: ShowcaseOptions = ShowcaseOptions(), size: Size = Size(width: 100, height: 30)) {
        showcase = InteractiveShowcase(app: choice, live: false, options: options, environment: Environment([:]), scheduler: scheduler)
        terminal = InMemoryTerminal(size: size)
        app = showcase.makeApp(device: terminal)
        settle()
    }

    /// Lets every pending answer arrive, then draws.
    func settle() {
        scheduler.advance(by: .seconds(10))
        app.drawNow()
    }

    /// Lets the main queue run what is queued (Observation's re-read after a change, for the
    /// screens observing an `@Observable` view model), then draws.
    func mainQueueTurn() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        app.drawNow()
    }

    func press(_ keys: Key...) {
        app.handle(keys)
        settle()
    }

    func type(_ text: String) {
        app.receive(Array(text.utf8))
        settle()
    }

    func resize(to size: Size) {
        terminal.resize(to: size)
        app.redrawAll()
    }

    var text: String { terminal.text }
    /// The words on screen, one space between them.
    var words: String { terminal.text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    var lines: [String] { (0..<terminal.size.height).map { terminal.line($0) } }
    var focused: View? { showcase.screen.focused }

    /// Ends the navigation (freeing the view models) and drops work still waiting on virtual
    /// time (a timer captures what it serves, which would otherwise stay alive for good).
    func close() {
        showcase.navigator.close()
        scheduler.cancelAll()
    }
}

/// Every app's screens, as reached from its first screen by the keys a person would press.
enum ShowcaseTour {
    /// (name, app, keys from the app's first screen, what must be on screen at 40×12) for
    /// every screen of the showcase.
    static let stops: [(name: String, app: ShowcaseApp?, keys: [Key], shows: [String])] = [
        ("launcher", nil, [], ["› Flickr search", "Esc: quit"]),
        ("flickr search", .flickr, [], ["Search Flickr", "[ Go ]", "Recent searches", "Esc: back"]),
        ("flickr results", .flickr, typing("sunset") + [.enter], ["120 photos", "› Golden sunset in Kyoto"]),
        ("flickr photo detail", .flickr, typing("sunset") + [.enter, .enter], ["Golden sunset in Kyoto", "by ", "♥", "[ Back ]"]),
        ("person", .person, [], ["Dr. Grace Hopper", "Born Sunday December 9, 1906", "› Grace Hopper", "Esc: back"]),
        ("person detail", .person, [.enter], ["Dr. Grace Hopper", "Salutation  Dr.", "First name  Grace", "Born        Sunday", "[ Back ]"]),
        // The demo users' hint is below the sign-up button, a scroll away at 40×12 (▼).
        ("login", .login, [], ["User name", "Password", "[ Login ]", "[ Create an account ]", "▼"]),
        ("login success", .login, typing("ada") + [.tab] + typing("lovelace") + [.enter], ["Welcome, Ada Lovelace!", "[ Back ]"]),
        ("movies", .movies, [], ["Now Playing", "› The Silent River", "←→"]),
        ("movies search", .movies, [.backTab, .backTab, .right] + typing("storm"), ["storm", "› Paper Storm"]),
        ("movie detail", .movies, [.enter], ["The Silent River", "Rating    ⭐️", "Runtime   2h"]),
        ("goods categories", .goods, [], ["› 茶叶 Tea", "新品 New arrivals", "Esc: back"]),
        ("goods list", .goods, [.down, .enter], ["[ Refresh ]", "› Notebook", "¥16.12", "15 items"]),
        ("goods detail", .goods, [.down, .enter, .enter], ["商品详情", "Notebook", "Price: ¥16.12"]),
        ("goods-dc categories", .goodsDataController, [], ["› 茶叶 Tea", "玩具 Toys", "Esc: back"]),
        ("goods-dc list", .goodsDataController, [.down, .down, .down, .down, .enter], ["[ Refresh ]", "› Kite", "¥25.45", "15 items"]),
    ]

    static func typing(_ text: String) -> [Key] { text.map { Key.character($0) } }
}

/// Issue 16: small windows. Every screen fits 40×12; below that (and at any size down to
/// 10×3) the window shows a message that fits, and keys do nothing until it is enlarged.
@MainActor @Suite struct ShowcaseSmallWindowTests {
    @Test(arguments: 0..<16)
    func everyScreenFitsA40By12Window(stop: Int) async {
        #expect(ShowcaseTour.stops.count == 16)
        let (name, choice, keys, shows) = ShowcaseTour.stops[stop]
        let harness = ShowcaseHarness(choice, size: Size(width: 40, height: 12))
        defer { harness.close() }
        await harness.mainQueueTurn()
        for key in keys {
            harness.press(key)
            await harness.mainQueueTurn()
        }
        let screen = harness.lines.joined(separator: "\n")
        #expect(!harness.text.lowercased().contains("too small"), "\(name) at 40×12:\n\(screen)")
        #expect(harness.terminal.overflows == 0, "\(name): text written outside the window")
        #expect(!harness.lines[0].isEmpty, "\(name): the title row is shown")
        for text in shows { #expect(harness.text.contains(text), "\(name) at 40×12 shows \(text):\n\(screen)") }
    }

    @Test func atRandomSizesEveryScreenFitsOrSaysSoAndTheMessageFits() async {
        var generator = SeededGenerator(seed: 40_12)
        for (name, choice, keys, _) in ShowcaseTour.stops {
            let harness = ShowcaseHarness(choice)
            defer { harness.close() }
            await harness.mainQueueTurn()
            for key in keys {
                harness.press(key)
                await harness.mainQueueTurn()
            }
            for _ in 0..<25 {
                let size = Size(width: Int.random(in: 10...200, using: &generator), height: Int.random(in: 3...60, using: &generator))
                harness.resize(to: size)
                #expect(harness.terminal.overflows == 0, "\(name) at \(size): text written outside the window")
                let small = size.width < 40 || size.height < 12
                #expect(harness.showcase.screen.isTooSmall == small)
                if small {
                    #expect(harness.words.lowercased().contains("too small"), "\(name) at \(size):\n\(harness.text)")
                    #expect(!harness.text.contains("…"), "\(name) at \(size): the message is cut:\n\(harness.text)")
                }
            }
        }
    }

    @Test func theLiveModeAlertFitsA40By12Window() {
        let showcase = InteractiveShowcase(app: .movies, live: true, environment: Environment([:]))
        defer { showcase.navigator.close() }
        let terminal = InMemoryTerminal(size: Size(width: 40, height: 12))
        let app = showcase.makeApp(device: terminal)
        app.drawNow()
        #expect(terminal.text.contains("Live mode needs an API key"), "\(terminal.text)")
        #expect(terminal.text.contains("[ Continue offline ]"), "\(terminal.text)")
        #expect(terminal.overflows == 0)
    }

    @Test func keysDoNothingWhileTheWindowIsTooSmall() {
        let harness = ShowcaseHarness(nil, size: Size(width: 20, height: 5))
        defer { harness.close() }
        #expect(harness.words == "Terminal too small need 40×12 Ctrl-C: quit", "\(harness.text)")
        #expect(harness.lines.allSatisfy { DisplayWidth.of($0) <= 20 })
        harness.press(.down, .enter)
        harness.resize(to: Size(width: 80, height: 24))
        #expect(harness.showcase.navigator.stack.count == 1, "Enter opened an app behind the message")
        #expect(harness.text.contains("› Flickr search"), "Down moved the selection behind the message")
        harness.resize(to: Size(width: 20, height: 5))
        harness.press(.escape)
        #expect(!harness.app.hasQuit, "Esc acted behind the message")
        harness.press(.control("c"))
        #expect(harness.app.hasQuit, "Ctrl-C still quits")
    }
}

/// Issue 16: the main control has the focus first, and keys do what the hints say.
@MainActor @Suite struct ShowcaseFocusTests {
    @Test func theGoodsListHasTheFocusSoEndPagesWithoutATab() {
        let harness = ShowcaseHarness(.goods)
        defer { harness.close() }
        harness.press(.down, .enter)
        #expect(harness.text.contains("Stationery · 15 items"))
        #expect(harness.focused is ListView, "focus is on \(String(describing: harness.focused))")
        harness.press(.end)
        #expect(harness.text.contains("Stationery · 30 items"), "\(harness.text)")
    }

    @Test func theDataControllerListHasTheFocus() {
        let harness = ShowcaseHarness(.goodsDataController)
        defer { harness.close() }
        harness.press(.down, .down, .down, .down, .enter)
        #expect(harness.text.contains("15 items"))
        #expect(harness.focused is ListView, "focus is on \(String(describing: harness.focused))")
        harness.press(.end)
        #expect(harness.text.contains("16 items · end of list"), "\(harness.text)")
    }

    @Test func moviesStartOnTheListAndTypingOnTheSearchTabGoesToTheField() {
        let harness = ShowcaseHarness(.movies)
        defer { harness.close() }
        #expect(harness.focused is ListView, "focus is on \(String(describing: harness.focused))")
        harness.press(.backTab, .backTab)
        #expect(harness.focused is SegmentedControl)
        harness.press(.right)
        #expect(harness.text.contains("Start searching"))
        harness.type("storm")
        #expect(harness.focused is TextField)
        #expect(harness.text.contains("Storm"), "typed text reached the search field:\n\(harness.text)")
    }

    @Test func leftAndRightInAMovieListSwitchWhatIsAboveIt() {
        let harness = ShowcaseHarness(.movies)
        defer { harness.close() }
        let segments = harness.showcase.screen.root.descendants(SegmentedControl.self)
        let tabs = segments[0], categories = segments[1]
        #expect(harness.focused is ListView)
        harness.press(.right)
        #expect(categories.selectedIndex == 1, "→ in the Now Playing list switches the list")
        #expect(harness.focused is ListView, "and the focus stays on the list")
        harness.press(.left)
        #expect(categories.selectedIndex == 0)
        harness.press(.backTab, .backTab, .right, .tab)
        harness.type("storm")
        harness.press(.down)
        #expect(harness.focused is ListView, "on the search results")
        harness.press(.left)
        #expect(tabs.selectedIndex == 0, "← in the search results switches back to the Movies tab")
        #expect(harness.focused is ListView)
    }

    @Test func escOnTheFirstScreenQuitsAsItsHintSays() {
        for choice in [nil] + ShowcaseApp.allCases.map(Optional.some) {
            let harness = ShowcaseHarness(choice)
            defer { harness.close() }
            harness.press(.escape)
            #expect(harness.app.hasQuit, "Esc on the first screen of \(choice?.title ?? "the launcher")")
        }
        let harness = ShowcaseHarness(nil)
        defer { harness.close() }
        harness.press(.down, .enter, .escape)
        #expect(!harness.app.hasQuit, "Esc in an app goes back to the launcher")
        #expect(harness.showcase.navigator.stack.count == 1)
    }
}

extension View {
    /// The views of `type` in this tree, in order.
    func descendants<T: View>(_ type: T.Type) -> [T] {
        ((self as? T).map { [$0] } ?? []) + children.flatMap { $0.descendants(type) }
    }
}

/// SplitMix64: the same sizes on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
