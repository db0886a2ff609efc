import Foundation
import Signals
import SignalsTesting
import Testing

// The code of the "Testing in virtual time" article
// (Sources/SignalsTesting/SignalsTesting.docc/TestingInVirtualTime.md), compiled and run; the
// last test fails if a `swift` block of the article is not found here word for word.

@Suite struct TestingArticleExamples {
    @Test func mapUppercasesEachValue() {
        let scheduler = TestScheduler()                               // one tick = 1 s
        let source = scheduler.cold("-a-b-|")
        #expect(scheduler.marbles(of: source.signal.map { $0.uppercased() }) == "-A-B-|")
        #expect(source.subscriptions == ["^----!"])                   // subscribed at 0, ended at 5
    }

    @Test func prefixDisposesItsSourceEarly() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-c-d-|")
        #expect(scheduler.marbles(of: source.signal.prefix(2)) == "-a-[b|]")
        #expect(source.subscriptions == ["^--!"])                     // disposed at b, not at d
    }

    @Test func aLateSubscriberOfAHotSourceMissesEarlierValues() {
        let scheduler = TestScheduler()
        let clicks = scheduler.hot("-a-b-c-|")
        #expect(scheduler.marbles(of: clicks.signal, subscribeAt: 2) == "--^b-c-|")
    }

    @Test func subscriptionMarksAreInAbsoluteTime() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-|")
        #expect(scheduler.marbles(of: source.signal, subscribeAt: 3) == "---^a-|")
        #expect(source.subscriptions == ["---^--!"])                  // ticks 3 to 6, not 0 to 3
    }

    @Test func typedValuesAndErrors() {
        let scheduler = TestScheduler()
        let numbers = scheduler.cold("-1-2-#", values: ["1": 1, "2": 2], error: TestError("offline"))
        let doubled = numbers.signal.map { $0 * 2 }
        #expect(scheduler.marbles(of: doubled, values: ["x": 2, "y": 4]) == "-x-y-#")
    }

    @Test func recorderKeepsEveryEventWithItsTime() {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(Signal.timer(after: .seconds(2), on: scheduler))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.recordedValues.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.recordedValues == [0])
        #expect(recorder.isCompleted)
        #expect(recorder.events.map(\.time) == [scheduler.now, scheduler.now])
    }

    @Test func theViewModelAndItsSubscriptionAreFreed() throws {
        try withLeakTracking { tracker in
            let scheduler = TestScheduler()
            defer { scheduler.cancelAll() }
            let viewModel = SearchViewModel(service: SlowSearchService(scheduler: scheduler), scheduler: scheduler)
            tracker.track(object: viewModel, name: "search view model")
            let results = scheduler.record(tracker.track(viewModel.results.signal, name: "results"))

            viewModel.query.value = "swift"
            scheduler.advance(by: .seconds(2))

            #expect(results.recordedValues == [[], ["swift!"]])
            results.dispose()                                         // the recorder holds it until then
        }
    }

    @Test func realThreads() async throws {
        let numbers = Signal<Int, Never>(sequence: [1, 2, 3]).subscribe(on: SerialQueueScheduler())
        #expect(try numbers.blocking().toArray() == [1, 2, 3])
        #expect(try await numbers.allValues() == [1, 2, 3])
    }
}

@Suite struct TestingArticleTests {
    @Test func articleCodeIsThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/SignalsTesting/SignalsTesting.docc/TestingInVirtualTime.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let blocks = ArticleCode.blocks(in: article, language: "swift")
        #expect(blocks.count >= 5, "found only \(blocks.count) swift blocks in the article")
        for block in blocks {
            let indented = block.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
            #expect(source.contains(indented), "this block of TestingInVirtualTime.md is not in TestingArticleTests.swift:\n\(block)")
        }
    }
}
