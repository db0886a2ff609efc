import Signals
import SignalsTesting
import Synchronization
import Testing

@Suite struct SmokeTests {
    @Test func mapFilterOnSubject() {
        let subject = PublishSubject<Int, Never>()
        let sum = Mutex(0)
        let d = subject.signal.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink(value: { v in sum.withLock { $0 += v } })
        for i in 0..<10 { subject.send(i) }
        let total = sum.withLock { $0 }
        #expect(total == 30)
        d.dispose()
        #expect(subject.subscriberCount == 0)
    }

    @Test func endlessSequenceStopsWithPrefix() throws {
        let values = try (1...).signal.prefix(3).blocking().toArray()
        #expect(values == [1, 2, 3])
    }

    @Test func marblesRoundTrip() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-|")
        #expect(scheduler.marbles(of: source.signal.map { $0.uppercased() }) == "-A-B-|")
        #expect(source.subscriptions == ["^----!"])
    }

    @Test func reentrantSendIsDeliveredAfterCurrentValue() {
        let subject = PublishSubject<Int, Never>()
        let log = Mutex<[String]>([])
        let a = subject.signal.sink(value: { v in
            log.withLock { $0.append("A\(v)") }
            if v == 1 { subject.send(2) }
        })
        let b = subject.signal.sink(value: { v in log.withLock { $0.append("B\(v)") } })
        subject.send(1)
        #expect(log.withLock { $0 } == ["A1", "B1", "A2", "B2"])
        a.dispose(); b.dispose()
    }
}
