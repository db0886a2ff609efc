import Signals
import SignalsTesting
import Testing

/// Seed 003's search pipeline (MI-VM2's operators): query text → throttle(1 s) →
/// removeDuplicates → flatMapLatest(search). Typing fast sends at most one request per second,
/// a repeated query sends none, and a slow answer to an old query never arrives after a newer
/// one.
@Suite struct SearchPipelineTests {
    /// A fake search whose latency depends on the query, and which logs every request.
    final class FakeSearch: Sendable {
        let scheduler: TestScheduler
        let requests = Locked<[(query: String, at: Duration)]>([])
        let latency: @Sendable (String) -> Duration

        init(scheduler: TestScheduler, latency: @escaping @Sendable (String) -> Duration) {
            self.scheduler = scheduler
            self.latency = latency
        }

        func search(_ query: String) -> Signal<String, Never> {
            Signal.deferred { [self] in
                requests.withLock { $0.append((query, scheduler.now.sinceEpoch)) }
                return Signal.just("results for \(query)").delay(for: latency(query), on: scheduler)
            }
        }
    }

    func pipeline(_ text: Signal<String, Never>, _ search: FakeSearch, _ scheduler: TestScheduler) -> Signal<String, Never> {
        text.throttle(for: .seconds(1), on: scheduler)
            .removeDuplicates()
            .flatMapLatest { search.search($0) }
    }

    @Test func typingFastSendsAtMostOneRequestPerSecond() {
        let scheduler = TestScheduler(tick: .milliseconds(100))
        defer { scheduler.cancelAll() }
        let search = FakeSearch(scheduler: scheduler) { _ in .milliseconds(50) }
        // Keystrokes every 100 ms for two seconds: "s", "su", "sun", …
        let word = "sunset beach"
        let text = PublishSubject<String, Never>()
        let results = scheduler.record(pipeline(text.signal, search, scheduler))
        for (index, end) in word.indices.enumerated() {
            let typed = String(word[...end])
            _ = scheduler.schedule(after: .milliseconds(100 * index)) { text.send(typed) }
        }
        scheduler.advance(by: .seconds(3))

        let times = search.requests.value.map(\.at)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= .seconds(1), "requests at \(times)")
        }
        #expect(search.requests.value.count <= 3)
        #expect(search.requests.value.last?.query == word, "the final text is always searched")
        #expect(results.recordedValues.last == "results for \(word)")
    }

    @Test func aRepeatedQuerySendsNoRequest() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let search = FakeSearch(scheduler: scheduler) { _ in .milliseconds(10) }
        let text = PublishSubject<String, Never>()
        let results = scheduler.record(pipeline(text.signal, search, scheduler))
        for (second, query) in ["cat", "cat", "dog", "dog"].enumerated() {
            _ = scheduler.schedule(after: .seconds(2 * second)) { text.send(query) }
        }
        scheduler.run()
        #expect(search.requests.value.map(\.query) == ["cat", "dog"])
        #expect(results.recordedValues == ["results for cat", "results for dog"])
    }

    @Test func aSlowAnswerToAnOldQueryNeverArrivesAfterANewerOne() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        // "old" takes 5 s to answer, "new" 100 ms.
        let search = FakeSearch(scheduler: scheduler) { $0 == "old" ? .seconds(5) : .milliseconds(100) }
        let text = PublishSubject<String, Never>()
        let results = scheduler.record(pipeline(text.signal, search, scheduler))
        text.send("old")
        _ = scheduler.schedule(after: .seconds(2)) { text.send("new") }
        scheduler.run()
        #expect(search.requests.value.map(\.query) == ["old", "new"])
        #expect(results.recordedValues == ["results for new"], "the old answer (due at 5 s) was cancelled by the newer query")
    }
}
