import Foundation
import Signals
import SignalsTesting
import Testing

// The Swift blocks of the Signals and SignalsTesting landing pages (Signals.md,
// SignalsTesting.md), as the pages have them, and checks of what they say; the last test fails if
// a block of those pages is not in this file.

@Suite struct LandingPageTests {
    @Test func theSignalsPageExample() throws {
        let printed = Locked<[String]>([])
        @Sendable func print(_ text: String) { printed.withLock { $0.append(text) } }   // what the page prints, kept
        let words = Signal<String, Never>(sequence: ["you", "are", "beautiful"])
        let subscription = words.map { $0.uppercased() }.sink(value: { print($0) })
        // YOU
        // ARE
        // BEAUTIFUL
        subscription.dispose()
        #expect(printed.value == ["YOU", "ARE", "BEAUTIFUL"], "what the page says it prints")
    }

    @Test func theSignalsTestingPageExample() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-|")
        #expect(scheduler.marbles(of: source.signal.map { $0.uppercased() }) == "-A-B-|")
    }

    @Test func everySwiftBlockOfTheLandingPagesIsHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func normalized(_ text: String) -> String {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
        let source = normalized(try String(contentsOf: here, encoding: .utf8))
        var count = 0
        for page in ["Sources/Signals/Signals.docc/Signals.md", "Sources/SignalsTesting/SignalsTesting.docc/SignalsTesting.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            for block in ArticleCode.blocks(in: text, language: "swift") {
                count += 1
                #expect(source.contains(normalized(block)), "this block of \(page) is not in LandingPageTests.swift:\n\(block)")
            }
        }
        #expect(count == 2)
    }
}
