import Foundation
import MVVM
import ScreenKit
import ScreenTesting
import Testing
import WebUITestSupport

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
    let files = ["ArticleScreen.swift", "ArticleTerminal.swift", "ArticleBrowser.swift", "ArticlePlain.swift", "ArticleTests.swift"]
    let (count, missing) = try ArticleCode.blocksMissing(
        from: files.map { "Tests/ScreenKitTests/" + $0 }, article: "Sources/ScreenKit/ScreenKit.docc/DescribingAScreenOnce.md")
    #expect(count == 7 && missing.isEmpty, "blocks of DescribingAScreenOnce.md in none of the article's test files: \(missing)")
}
