import MVVM
import ScreenKit
import Signals
import Testing
@testable import WebUI

/// T-UI6 (views map view-model types to screens), issue 41 (memory per tab): a stack keeps only
/// its top page's elements. A page under the top
/// goes, with its bindings, and is built again when it is on top again, showing its view
/// model's values as they are then; its `onAppear` (a list's first page) does not run again.
@MainActor
@Suite struct NavigationStackTests {
    final class LevelViewModel: Sendable {
        let name: String
        let note = MutableProperty("")
        let appeared = Locked(0)
        init(_ name: String) { self.name = name }
    }

    final class Built {
        var pages: [String: [Weak]] = [:]
        struct Weak { weak var content: WebUI.Element? }
        func alive(_ name: String) -> Int { pages[name, default: []].filter { $0.content != nil }.count }
    }

    func stack(built: Built) -> (Document, NavigationStack, Navigator) {
        let document = Document()
        document.flushesAutomatically = false
        let stack = NavigationStack()
        document.root.setChildren([stack])
        _ = document.render()
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(LevelViewModel.self) { viewModel in
            let screen = Screen(viewModel.name) {
                Text(viewModel.note)
            }.onAppear { viewModel.appeared.withLock { $0 += 1 } }
            let page = ScreenRenderer.page(for: screen)
            built.pages[viewModel.name, default: []].append(Built.Weak(content: page.content))
            return page
        }
        let navigator = Navigator()
        stack.bind(to: navigator, registry: registry)
        return (document, stack, navigator)
    }

    @Test func onlyTheTopPageIsKeptAndAPageUnderItIsBuiltAgainWithoutAppearingAgain() throws {
        let built = Built()
        let (document, stack, navigator) = stack(built: built)
        let first = LevelViewModel("First"), second = LevelViewModel("Second"), third = LevelViewModel("Third")
        navigator.push(first)
        #expect(built.alive("First") == 1 && first.appeared.value == 1)
        navigator.push(second)
        navigator.push(third)
        // Three levels deep; one page's elements.
        #expect(stack.depth == 3)
        #expect(stack.pages.count == 1 && stack.top?.title == "Third")
        #expect(built.alive("First") == 0 && built.alive("Second") == 0 && built.alive("Third") == 1)
        // A change while the page is gone shows when it is built again.
        second.note.value = "changed while hidden"
        navigator.pop()
        #expect(stack.top?.title == "Second" && stack.depth == 2)
        #expect(built.alive("Second") == 1 && built.alive("Third") == 0)
        #expect(document.bodyHTML.contains("changed while hidden"))
        #expect(second.appeared.value == 1 && built.pages["Second"]?.count == 2)  // built twice, appeared once
        // Its bindings are live again.
        second.note.value = "and after"
        #expect(document.bodyHTML.contains("and after"))
        // The browser's Back to the first level: built again, once.
        navigator.pop()
        #expect(stack.top?.title == "First" && stack.depth == 1 && built.alive("First") == 1)
        #expect(first.appeared.value == 1)
    }

    /// A page pushed by hand (no view model to build it from) is kept under the top.
    @Test func aPagePushedByHandIsKept() {
        let stack = NavigationStack()
        stack.push(.init(title: "One", content: Label("one")))
        stack.push(.init(title: "Two", content: Label("two")))
        #expect(stack.pages.map(\.title) == ["One", "Two"])
        stack.pop()
        #expect(stack.top?.title == "One")
    }
}
