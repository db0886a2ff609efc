import PropertyBased
@testable import Signals
import SignalsTesting
import Testing

/// Issue 28: the timers behind the time operators, and the debounced and throttled inputs every
/// search field uses, against reference models in virtual time.
@Suite struct TimeModelTests {
    /// A timer that fires inside `schedule` (an immediate scheduler runs it at once) is not kept:
    /// before the fix its handle was stored after it had already removed itself, so a
    /// long-lived `delay` or `throttle` on such a scheduler kept one handle per value.
    @Test func aTimerThatFiresWhileBeingScheduledIsNotKept() {
        let bag = TimerBag()
        let fired = Locked(0)
        for _ in 0..<1_000 {
            bag.schedule(after: .seconds(1), on: ImmediateScheduler()) { fired.withLock { $0 += 1 } }
        }
        #expect(fired.value == 1_000)
        #expect(bag.count == 0, "fired timers are forgotten, also those that fired inside schedule")
        bag.dispose()
    }

    /// The bag against a model in virtual time: random schedules, advances and a dispose. After
    /// each step the bag holds exactly the timers not fired yet, each action runs once at its
    /// time, and none runs after `dispose()`.
    @Test func theBagHoldsExactlyThePendingTimers() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...99).array(of: 1...60)) { program in
            let scheduler = TestScheduler()
            defer { _ = scheduler.cancelAll() }
            let bag = TimerBag()
            let fired = Locked<[Int]>([])
            var pending: [(id: Int, at: Int)] = []
            var expectedFired: [Int] = []
            var disposed = false
            for (id, code) in program.enumerated() {
                switch code % 10 {
                case 0...4:
                    let delay = code % 5  // 0 fires at the next advance
                    bag.schedule(after: .seconds(delay), on: scheduler) { fired.withLock { $0.append(id) } }
                    if !disposed { pending.append((id, scheduler.nowInTicks + delay)) }
                case 5...8:
                    let ticks = code % 4
                    let until = scheduler.nowInTicks + ticks
                    scheduler.advance(ticks: ticks)
                    let due = pending.filter { $0.at <= until }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
                    expectedFired += due.map(\.id)
                    pending.removeAll { $0.at <= until }
                default:
                    bag.dispose()
                    disposed = true
                    pending = []
                }
                #expect(bag.count == pending.count, "step \(id): the bag holds \(bag.count), pending \(pending.count)")
                #expect(fired.value == expectedFired, "step \(id)")
            }
            bag.dispose()
            scheduler.run()
            #expect(fired.value == expectedFired, "nothing fires after dispose")
        }
    }

    /// `debounce` against its definition: a value sent at t is emitted at t + interval exactly
    /// when no other value comes before then; the pending value is emitted when the source
    /// completes. Random typing with random gaps, as a search field sees it.
    @Test func debounceMatchesItsDefinition() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...9).array(of: 0...30), Gen.int(in: 1...4)) { gaps, interval in
            let scheduler = TestScheduler()
            defer { _ = scheduler.cancelAll() }
            let input = PublishSubject<Int, Never>()
            let output = scheduler.record(input.signal.debounce(for: .seconds(interval), on: scheduler))
            var times: [Int] = []
            for (index, gap) in gaps.enumerated() {
                scheduler.advance(ticks: gap)
                times.append(scheduler.nowInTicks)
                input.send(index)
            }
            scheduler.advance(ticks: 1)
            let end = scheduler.nowInTicks
            input.sendCompleted()
            scheduler.run()
            var expected: [(tick: Int, value: Int)] = []
            for (index, time) in times.enumerated() {
                let next = index + 1 < times.count ? times[index + 1] : nil
                if let next, next < time + interval { continue }           // a newer value came in time
                if next == nil, end < time + interval { expected.append((end, index)); continue }  // flushed by completion
                expected.append((time + interval, index))
            }
            let seen = output.events.compactMap { recorded -> (Int, Int)? in
                guard case .value(let value) = recorded.element else { return nil }
                return (Int(recorded.time.sinceEpoch / .seconds(1)), value)
            }
            #expect(seen.map(\.0) == expected.map(\.tick) && seen.map(\.1) == expected.map(\.value), "gaps \(gaps), interval \(interval)")
            #expect(output.isCompleted)
        }
    }

    /// `throttle` keeping the latest, against its rules: the first value goes at once; two
    /// emissions are at least `interval` apart; each emission is the newest value sent by then
    /// and is emitted once; a value that comes when the window is free goes at once; and the
    /// last value always goes out (nothing typed is lost at the end).
    @Test func throttleKeepsItsRules() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...6).array(of: 1...30), Gen.int(in: 1...4)) { gaps, interval in
            let scheduler = TestScheduler()
            defer { _ = scheduler.cancelAll() }
            let input = PublishSubject<Int, Never>()
            let output = scheduler.record(input.signal.throttle(for: .seconds(interval), on: scheduler))
            var sent: [(tick: Int, value: Int)] = []
            for (index, gap) in gaps.enumerated() {
                scheduler.advance(ticks: gap)
                let before = output.recordedValues.count
                let lastEmission = output.events.last.map { Int($0.time.sinceEpoch / .seconds(1)) }
                let windowFree = lastEmission.map { scheduler.nowInTicks - $0 >= interval } ?? true
                let nothingPending = sent.last.map { last in output.recordedValues.last == last.value } ?? true
                sent.append((scheduler.nowInTicks, index))
                input.send(index)
                if windowFree && nothingPending {
                    #expect(output.recordedValues.count == before + 1 && output.recordedValues.last == index, "a value in a free window goes at once (gaps \(gaps), interval \(interval))")
                }
            }
            scheduler.run()
            let emissions = output.events.compactMap { recorded -> (tick: Int, value: Int)? in
                guard case .value(let value) = recorded.element else { return nil }
                return (Int(recorded.time.sinceEpoch / .seconds(1)), value)
            }
            #expect(emissions.first?.value == 0 && emissions.first?.tick == sent.first?.tick, "the first value goes at once")
            #expect(zip(emissions, emissions.dropFirst()).allSatisfy { $1.tick - $0.tick >= interval }, "gaps \(gaps), interval \(interval): \(emissions)")
            #expect(zip(emissions, emissions.dropFirst()).allSatisfy { $0.value < $1.value }, "each value at most once, in order")
            for emission in emissions {
                // (Values sent at the emission's own tick may come after it.)
                #expect(!sent.contains { $0.value > emission.value && $0.tick < emission.tick }, "an emission is the newest value sent by then")
            }
            #expect(emissions.last?.value == sent.last?.value, "the last value is never lost")
        }
    }
}
