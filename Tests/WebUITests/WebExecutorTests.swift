import Dispatch
import Foundation
import MVVM
import Signals
import Synchronization
import Testing
@testable import WebUI

/// Issue 41, T-UI2 (a binding into a view's property, from any thread): a page built on a
/// session's executor is bound there: values a view model sends from any thread reach its
/// elements on that executor, in order, the last one last; the page's frame is made there too.
@Suite struct WebExecutorTests {
    /// A label that counts the values set on it off its executor.
    final class WatchedLabel: Element {
        let executor: WebExecutor
        let offExecutor = Atomic<Int>(0)

        init(on executor: WebExecutor) {
            self.executor = executor
            super.init("span")
        }

        var shown = "" {
            didSet {
                if !executor.isCurrent { offExecutor.add(1, ordering: .relaxed) }
                text = shown
            }
        }
    }

    @Test func valuesFromAnyThreadReachTheElementOnItsExecutorInOrder() async {
        let executor = WebExecutor()
        let property = MutableProperty(0)
        let frames = Locked<[String]>([])
        // SAFETY (test): the document and label are made, and read, on `executor` only.
        nonisolated(unsafe) var built: (Document, WatchedLabel)?
        await executor.perform {
            let document = Document()
            document.onFrame = { _, text in frames.withLock { $0.append(text) } }
            let label = WatchedLabel(on: executor)
            document.root.setChildren([label])
            property.signal.map(String.init).bind(to: label, \.shown)
            built = (document, label)
        }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for value in 1...500 where value % 4 == writer { property.value = value }
                }
            }
        }
        property.value = 1000
        // Everything queued on the executor before this runs after it.
        let (text, off, sameExecutor) = await executor.perform { () -> (String, Int, Bool) in
            let (document, label) = built!
            return (label.text, label.offExecutor.load(ordering: .relaxed), document.executor === executor)
        }
        #expect(text == "1000")
        #expect(off == 0, "a value was set off the page's executor")
        #expect(sameExecutor)
        await executor.perform { }
        #expect(frames.withLock { $0.last?.contains("1000") ?? false }, "the last frame shows the last value")
        _ = built
    }

    @Test func theCurrentExecutorIsTheOneRunning() async {
        let executor = WebExecutor()
        #expect(await executor.perform { WebExecutor.current === executor && executor.isCurrent && !WebExecutor.main.isCurrent })
        #expect(await MainActor.run { WebExecutor.current === WebExecutor.main && WebExecutor.main.isCurrent && !executor.isCurrent })
    }
}

extension WebExecutorTests {
    /// An element's value used off its executor stops the program (not a silent data race).
    @Test func aConfinedValueUsedOffItsExecutorStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let confined = Confined(1, on: WebExecutor())
            _ = confined.get
        }
    }

    /// A page's executor asked for on a stray thread (neither a session's executor nor the main
    /// thread) stops the program with the message that says why, instead of taking the main
    /// one's: the element would be built on one thread and used on another (issue 58). On the
    /// main thread and on a session's executor it answers (the test above).
    @Test func theCurrentExecutorOnAStrayThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let stray = DispatchQueue(label: "stray")
            stray.sync { _ = WebExecutor.current }
        }
        await #expect(processExitsWith: .failure) {
            await Task.detached { _ = Document() }.value
        }
    }
}
