import Foundation
import MVVM
import ScreenKit
import ScreenTesting
import Testing

// The article's test block, and the check that every swift block of the article is in these
// files (a rename breaks CI, not a reader).

@MainActor
@Test func counterCountsAndGreets() throws {
    let navigator = Navigator(root: CounterViewModel())
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(CounterViewModel.self, counterScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    try tester.type("Ada", into: "Name")
    try tester.press("+1")
    #expect(tester.contains("Hello, Ada!"))
    #expect(tester.contains("Pressed 1 times"))
    #expect(tester.text == """
        Counter
        =======
        Name: Ada
        Hello, Ada!
        [+1]  Pressed 1 times
        """)
}

@MainActor
@Test func shelfSortsByTheChoice() throws {
    let viewModel = ShelfViewModel(titles: ["Emma", "Dracula", "Beloved"])
    let navigator = Navigator(root: viewModel)
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(ShelfViewModel.self, shelfScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    try tester.choose("Title")
    #expect(viewModel.sort.value == .title)
    #expect(tester.contains("Beloved, Dracula, Emma"))
    viewModel.sort.value = .oldest
    #expect(tester.contains("Sort: ( ) Newest  (•) Oldest  ( ) Title"))
}

@Test func theArticleIsTheseFiles() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let root = here.deletingLastPathComponent().deletingLastPathComponent()
    let article = try String(contentsOf: root.appendingPathComponent("Sources/ScreenKit/ScreenKit.docc/DescribingAScreenOnce.md"), encoding: .utf8)
    func normalized(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
    let sources = try ["ArticleScreen.swift", "ArticleTerminal.swift", "ArticleBrowser.swift", "ArticlePlain.swift", "ArticleTests.swift"]
        .map { normalized(try String(contentsOf: here.appendingPathComponent($0), encoding: .utf8)) }
        .joined(separator: "\n")
    var blocks: [String] = []
    var current: [Substring]?
    for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
            current = []
        } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else {
            current?.append(line)
        }
    }
    #expect(blocks.count == 7)
    for block in blocks {
        #expect(sources.contains(normalized(block)), "this block of DescribingAScreenOnce.md is in none of the article's test files:\n\(block)")
    }
}
