import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/PrefixUntilOutput.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `PrefixUntilOutput.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let prefixUntilOutputCases: [OperatorCase] = [
        OperatorCase(name: "prefix(untilOutputFrom:)", apply: { $0.prefix(untilOutputFrom: Signal<Int, Never>.never) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "drop(untilOutputFrom:)", apply: { $0.drop(untilOutputFrom: Signal<Int, Never>.just(1)) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct PrefixUntilOutputTests {
    @Test func prefixUntilOutputFromATriggerThatFiresAtOnceNeverSubscribesTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: Signal<Int, Never>.just(1))) == "|")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func prefixUntilOutputFromDisposesBothWhenTheTriggerFires() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-d-|")
        let trigger = scheduler.hot("----x-y-")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: trigger.signal)) == "-a-b|")
        #expect(source.subscriptions == ["^---!"])
        #expect(trigger.subscriptions == ["^---!"])
    }

    @Test func dropUntilOutputFromReleasesTheTriggerAtItsFirstValue() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-|")
        let trigger = scheduler.hot("--x-y-z")
        #expect(scheduler.marbles(of: source.signal.drop(untilOutputFrom: trigger.signal)) == "---b-c-|")
        #expect(trigger.subscriptions == ["^-!"])
        #expect(source.subscriptions == ["^------!"])
    }

    @Test func dropUntilOutputFromATriggerThatNeverFiresEmitsOnlyTheEnd() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-|")
        let trigger = scheduler.cold("--|")
        #expect(scheduler.marbles(of: source.signal.drop(untilOutputFrom: trigger.signal)) == "-----|")
    }

    // Issue 15: take(until:) and skip(until:) forward a failing trigger, as RxSwift does.
    @Test func prefixUntilOutputFromFailsWhenTheTriggerFails() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-d-|")
        let trigger = scheduler.cold("---#", values: [String: String](), error: TestError("trigger"))
        let recorder = scheduler.record(source.signal.prefix(untilOutputFrom: trigger.signal))
        scheduler.run()
        #expect(scheduler.diagram(of: recorder) == "-a-#")
        #expect(recorder.failure == TestError("trigger"))
        #expect(source.subscriptions == ["^--!"])
        #expect(trigger.subscriptions == ["^--!"])
    }

    @Test func prefixUntilOutputFromATriggerThatFailsAtOnceFailsWithoutSubscribingTheSource() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: Signal<Int, TestError>.fail(TestError()))) == "#")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func prefixUntilOutputFromIgnoresATriggerThatCompletes() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let trigger = scheduler.cold("--|")
        #expect(scheduler.marbles(of: source.signal.prefix(untilOutputFrom: trigger.signal)) == "-a-b-c-|")
        #expect(trigger.subscriptions == ["^-!"])
    }

    @Test func dropUntilOutputFromFailsWhenTheTriggerFailsBeforeItsFirstValue() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let trigger = scheduler.cold("--#", values: [String: String](), error: TestError("trigger"))
        let recorder = scheduler.record(source.signal.drop(untilOutputFrom: trigger.signal))
        scheduler.run()
        #expect(scheduler.diagram(of: recorder) == "--#")
        #expect(recorder.failure == TestError("trigger"))
        #expect(source.subscriptions == ["^-!"])
        #expect(trigger.subscriptions == ["^-!"])
    }

    @Test func dropUntilOutputFromIgnoresAFailureAfterTheTriggerFired() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let trigger = scheduler.cold("--x-#")
        #expect(scheduler.marbles(of: source.signal.drop(untilOutputFrom: trigger.signal)) == "---b-c-|")
        #expect(trigger.subscriptions == ["^-!"])
    }

    @Test func untilOutputFromOverloadsKeepEveryFailureTyped() {
        // Each stream on a scheduler of its own, so that each diagram starts at tick 0.
        func calm(_ scheduler: TestScheduler) -> Signal<String, Never> {
            scheduler.cold("-a-b-c-|").signal.replaceErrorWithCompletion()
        }
        func failing(_ scheduler: TestScheduler) -> Signal<String, TestError> {
            scheduler.cold("--#", values: [String: String](), error: TestError("trigger")).signal
        }
        let never: Signal<Int, Never> = .never
        // A source that cannot fail takes the trigger's failure type, and fails with it.
        let one = TestScheduler(), two = TestScheduler()
        let prefixed: Signal<String, TestError> = calm(one).prefix(untilOutputFrom: failing(one))
        let dropped: Signal<String, TestError> = calm(two).drop(untilOutputFrom: failing(two))
        #expect(one.marbles(of: prefixed) == "-a#")
        #expect(two.marbles(of: dropped) == "--#")
        // A trigger that cannot fail leaves the source's failure type.
        let three = TestScheduler(), four = TestScheduler(), five = TestScheduler()
        let kept: Signal<String, TestError> = three.cold("-a-#").signal.prefix(untilOutputFrom: never)
        let quiet: Signal<String, Never> = calm(four).prefix(untilOutputFrom: never)
        let skipped: Signal<String, Never> = calm(five).drop(untilOutputFrom: Signal<Int, Never>.just(1))
        #expect(three.marbles(of: kept) == "-a-#")
        #expect(four.marbles(of: quiet) == "-a-b-c-|")
        #expect(five.marbles(of: skipped) == "-a-b-c-|")
        for scheduler in [one, two, three, four, five] { scheduler.cancelAll() }
    }
}
