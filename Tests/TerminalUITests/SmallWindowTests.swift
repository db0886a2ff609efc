import Testing
@testable import TerminalUI

/// Issue 16: small windows. Every view fits the window it is given (nothing is written past
/// its edges), and a window smaller than the screen's minimum shows a message that fits whole
/// while keys do nothing.
@MainActor @Suite struct SmallWindowTests {
    /// The words shown, one space between them.
    func words(_ terminal: InMemoryTerminal) -> String {
        terminal.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func theTooSmallMessageFitsWholeInEveryWindowFromNineColumnsAndOneRow() {
        for width in 1...80 {
            for height in 1...20 {
                let have = Size(width: width, height: height)
                let lines = TerminalScreen.tooSmallMessage(need: Size(width: 40, height: 12), have: have)
                #expect(lines.count <= height, "\(have): \(lines)")
                #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(have): \(lines)")
                if width >= 9 {
                    #expect(lines.joined(separator: " ").contains("small") && !lines.joined().contains("…"), "\(have): \(lines)")
                }
            }
        }
        #expect(TerminalScreen.tooSmallMessage(need: Size(width: 40, height: 12), have: Size(width: 20, height: 5))
                == ["Terminal too small", "need 40×12", "Ctrl-C: quit"])
        #expect(TerminalScreen.tooSmallMessage(need: Size(width: 40, height: 12), have: Size(width: 39, height: 12))
                == ["Terminal too small", "need 40×12, have 39×12", "Enlarge the window, or press Ctrl-C to", "quit."])
    }

    /// One of each kind of screen the views make.
    static let kinds: [(name: String, make: @MainActor () -> (View, ListView?))] = [
        ("form", {
            let field = TextField(placeholder: "User name (3+ characters)")
            return (Stack(.vertical, spacing: 1, [Label("User name"), field, Stack(.horizontal, spacing: 1, [TextField(text: "sunset"), Button("Go")]),
                                                  Label("Try ada/lovelace (success), grace/hopper (needs verification).", style: .dim, wraps: true),
                                                  StatusLine("Tab: next • Enter: choose • Esc: back • Ctrl-C: quit")]), nil)
        }),
        ("list", {
            let list = ListView()
            list.rows = (0..<500).map { ListView.Row(["Row \($0) 商品 ⭐️", "second line \($0)"]) }
            return (Stack(.vertical, spacing: 1, [Label("Apps from the tutorials", style: .dim), list, StatusLine("↑↓: choose • Enter: open")]), list)
        }),
        ("tabs", {
            let list = ListView()
            list.rows = (0..<50).map { ListView.Row("Movie \($0)  ⭐️⭐️⭐️") }
            let segments = SegmentedControl(["Now Playing", "Popular", "Top Rated", "Upcoming"], selectedIndex: 2)
            let tabs = TabBar([(title: "Movies", content: Stack(.vertical, [segments, list])), (title: "Search", content: TextField())])
            return (Stack(.vertical, [tabs, StatusLine("←→: switch • Enter: details • Esc: back")]), list)
        }),
        ("border", {
            let card = Border(title: "PersonViewModel with a long title", Stack(.vertical, [Label("Dr. Grace Hopper", style: .bold), Label("Born Sunday December 9, 1906")]))
            return (Stack(.vertical, spacing: 1, [card, Label(String(repeating: "A long overview that wraps. ", count: 20), wraps: true)]), nil)
        }),
        ("navigation", {
            let list = ListView()
            list.rows = (0..<30).map { ListView.Row("商品 \($0)") }
            let stack = NavigationStack(root: .init(title: "分类 Categories", view: Label("root")))
            stack.push(.init(title: "商品列表 · 玩具 Toys and a long title", view: Stack(.vertical, [Button("Refresh"), list, StatusLine("15 items · ↓ at the end loads more")])))
            return (stack, list)
        }),
    ]

    @Test(arguments: 0..<5)
    func atRandomSizesAScreenFitsOrSaysSo(kind: Int) {
        var generator = SplitMix64(seed: UInt64(16 + kind))
        let (name, make) = Self.kinds[kind]
        let (view, list) = make()
        let harness = Harness(view, size: Size(width: 80, height: 24))
        harness.screen.minimumSize = Size(width: 40, height: 12)
        for _ in 0..<150 {
            let size = Size(width: Int.random(in: 10...200, using: &generator), height: Int.random(in: 3...60, using: &generator))
            harness.terminal.resize(to: size)
            harness.app.redrawAll()
            #expect(harness.terminal.overflows == 0, "\(name) at \(size): written outside the window:\n\(harness.text)")
            let small = size.width < 40 || size.height < 12
            #expect(harness.screen.isTooSmall == small)
            if small {
                #expect(words(harness.terminal).contains("too small") || words(harness.terminal).contains("Too small"), "\(name) at \(size):\n\(harness.text)")
                #expect(!harness.text.contains("…"), "\(name) at \(size): the message is cut:\n\(harness.text)")
                let selection = list?.selection
                harness.press(.down, .pageDown, .enter, .tab)
                #expect(list?.selection == selection, "\(name) at \(size): a key moved the list behind the message")
            }
        }
    }

    @Test func segmentsThatDoNotFitShowTheSelectedOneWithArrows() {
        let segments = SegmentedControl(["Now Playing", "Popular", "Top Rated", "Upcoming"], selectedIndex: 3)
        let harness = Harness(Stack(.vertical, [segments]), size: Size(width: 30, height: 5))
        #expect(harness.line(0) == "‹ Top Rated │ Upcoming", "the selected segment and what fits before it")
        harness.press(.left, .left, .left)
        #expect(segments.selectedIndex == 0)
        #expect(harness.line(0).hasPrefix(" Now Playing "))
        #expect(harness.line(0).hasSuffix("›"))
        #expect(harness.terminal.overflows == 0)
    }

    @Test func aHintLosesWholeItemsAndAStackClosesUpBeforeCuttingViews() {
        #expect(StatusLine.fit("↑↓: choose • Enter: open • Esc: quit • Ctrl-C: quit", to: 30) == "↑↓: choose • Enter: open")
        #expect(StatusLine.fit("No separators in this long text", to: 10) == "No separa…")
        let last = Label("the last line")
        let harness = Harness(Stack(.vertical, spacing: 1, [Label("a"), Label("b"), Label("c"), last]), size: Size(width: 20, height: 5))
        #expect(harness.text.hasPrefix("a\nb\nc\nthe last line"), "the gaps went first")
        harness.terminal.resize(to: Size(width: 20, height: 8))
        harness.app.redrawAll()
        #expect(harness.text.hasPrefix("a\n\nb\n\nc\n\nthe last line"), "with room, the gaps are back")
    }

    @Test func aWrappedLabelCutShortEndsWithAnEllipsis() {
        let label = Label("one two three four five six seven eight", wraps: true)
        let harness = Harness(Stack(.vertical, [Label("title"), Border(Stack(.vertical, [label]))]), size: Size(width: 20, height: 5))
        #expect(harness.text.contains("…"), "\(harness.text)")
        #expect(!harness.text.contains("eight"))
    }
}
