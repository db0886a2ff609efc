import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Window.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.
// Issue 15: the operators RxSwift users expect.

extension OperatorCase {
    /// `Window.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let windowCases: [OperatorCase] = [
        OperatorCase(name: "window(timeSpan:count:on:)", timed: { $0.window(timeSpan: .seconds(2), count: 5, on: $1).flatMap { $0 } },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct WindowTests {
    static func collected(_ signal: Signal<String, TestError>, _ scheduler: TestScheduler, span: Int, count: Int) -> Signal<String, TestError> {
        signal.window(timeSpan: .seconds(span), count: count, on: scheduler).flatMap { $0.collect().map { $0.joined() } }
    }

    @Test func anEmptyStreamEmitsOneEmptyWindow() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: Self.collected(scheduler.cold("--|").signal, scheduler, span: 5, count: 3)) == "--[()|]")
    }

    @Test func emptyWindowsAreEmittedEverySpan() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: Self.collected(scheduler.cold("-----|").signal, scheduler, span: 2, count: 3)) == "--()-()[()|]")
    }

    @Test func aFullWindowRestartsTheSpan() {
        let scheduler = TestScheduler()
        // a, b fill the first window at tick 2; the next span runs from 2 to 5 (not 3 to 6).
        #expect(scheduler.marbles(of: Self.collected(scheduler.cold("-ab---c|").signal, scheduler, span: 3, count: 2)) == "--(ab)--()-[c|]")
    }

    @Test func aFailureFailsTheOpenWindowAndTheOutput() {
        let scheduler = TestScheduler()
        let windows = Recorder<Signal<String, TestError>, TestError>()
        let source = scheduler.cold("-a-#")
        windows.subscribe(to: source.signal.window(timeSpan: .seconds(10), count: 5, on: scheduler))
        let first = Recorder<String, TestError>()
        first.subscribe(to: windows.recordedValues[0])
        scheduler.run()
        #expect(first.recordedValues == ["a"])
        #expect(first.failure == TestError())
        #expect(windows.failure == TestError())
        #expect(windows.recordedValues.count == 1)
    }

    @Test func disposalCancelsTheTimerAndTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-|")
        let recorder = scheduler.record(source.signal.window(timeSpan: .seconds(2), count: 5, on: scheduler), subscribeAt: 0, disposeAt: 3)
        scheduler.advance(by: .seconds(3))
        #expect(recorder.recordedValues.count == 2)
        #expect(source.activeSubscriptionCount == 0)
        #expect(scheduler.pendingActionCount == 2, "only the hot source's c and |, no window timer")
    }
}
