import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Timer.swift`: its own behaviour.
// T-OP5: time operators, in virtual time.

@Suite struct TimerTests {
    @Test func intervalTicksUntilDisposed() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let recorder = scheduler.record(Signal.interval(.seconds(1), on: scheduler))
        scheduler.advance(by: .seconds(3))
        recorder.dispose()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.recordedValues == [0, 1, 2])
        #expect(scheduler.pendingActionCount == 0, "the timer was cancelled")
    }

    @Test func timerWithAPeriodKeepsCounting() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let recorder = scheduler.record(Signal.timer(after: .seconds(2), period: .seconds(1), on: scheduler))
        scheduler.advance(by: .seconds(4))
        #expect(recorder.recordedValues == [0, 1, 2])
        recorder.dispose()
    }
}
