import Foundation
import Signals
import SignalsTesting
import Testing

// The code of the "Getting started" article (Sources/Signals/Signals.docc/GettingStarted.md),
// compiled and run. `articleCodeIsThisFile` fails if a `swift` block of the article is not
// found here word for word, so the article cannot drift from code that builds.

// MARK: article

struct SearchError: Error, Equatable {}

protocol SearchService: Sendable {
    func search(_ text: String) -> Signal<[String], SearchError>
}

final class SearchViewModel: Sendable {
    let query = MutableProperty("")                   // input: the search field sets it
    let results: Property<[String]>                   // output: the list shows it

    init(service: any SearchService, scheduler: any Scheduler) {
        results = Property(initial: [], then: query.changes
            .debounce(for: .milliseconds(300), on: scheduler)
            .removeDuplicates()
            .flatMapLatest { text -> Signal<[String], Never> in
                text.isEmpty ? .just([]) : service.search(text).replaceError(with: [])
            })
    }
}

/// Answers after one second of the scheduler's time, and fails for "error".
struct SlowSearchService: SearchService {
    let scheduler: any Scheduler

    func search(_ text: String) -> Signal<[String], SearchError> {
        let answer: Signal<[String], SearchError> = text == "error" ? .fail(SearchError()) : .just([text + "!"])
        return answer.delaySubscription(for: .seconds(1), on: scheduler)
    }
}

@Suite struct SearchViewModelTests {
    @Test func searchesWhenTheTypingPausesAndDropsStaleAnswers() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let viewModel = SearchViewModel(service: SlowSearchService(scheduler: scheduler), scheduler: scheduler)
        let results = scheduler.record(viewModel.results.signal)

        viewModel.query.value = "s"
        viewModel.query.value = "sw"                  // typed within 300 ms: one search, for "sw"
        scheduler.advance(by: .milliseconds(300))
        viewModel.query.value = "swift"               // before "sw" is answered
        scheduler.advance(by: .seconds(2))

        #expect(results.recordedValues == [[], ["swift!"]])   // the answer for "sw" never shows
    }

    @Test func aFailedSearchShowsNoResults() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let viewModel = SearchViewModel(service: SlowSearchService(scheduler: scheduler), scheduler: scheduler)

        viewModel.query.value = "error"
        scheduler.advance(by: .seconds(2))

        #expect(viewModel.results.value == [])
    }
}

/// The search as the app runs it: the debounce on a queue of its own, in real time.
func makeSearch(service: any SearchService) -> SearchViewModel {
    SearchViewModel(service: service, scheduler: SerialQueueScheduler(label: "search"))
}

/// The app's view model, on the clock: 300 ms of real debounce, then the answer.
@Suite struct RealTimeSearchTests {
    struct InstantSearch: SearchService {
        func search(_ text: String) -> Signal<[String], SearchError> { .just([text + "!"]) }
    }

    @Test func theAppsSearchAnswersInRealTime() async throws {
        let viewModel = makeSearch(service: InstantSearch())
        viewModel.query.value = "swift"
        let clock = ContinuousClock(), started = clock.now
        while viewModel.results.value.isEmpty, clock.now - started < .seconds(20) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(viewModel.results.value == ["swift!"])
        #expect(clock.now - started >= .milliseconds(290), "the debounce took real time")
    }
}

// MARK: end of article

@Suite struct GettingStartedArticleTests {
    @Test func articleCodeIsThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/Signals/Signals.docc/GettingStarted.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let blocks = ArticleCode.blocks(in: article, language: "swift")
        #expect(blocks.count >= 3, "found only \(blocks.count) swift blocks in the article")
        for block in blocks {
            #expect(source.contains(block), "this block of GettingStarted.md is not in GettingStartedTests.swift:\n\(block)")
        }
    }
}

/// The fenced code blocks of a Markdown article.
enum ArticleCode {
    static func blocks(in markdown: String, language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
