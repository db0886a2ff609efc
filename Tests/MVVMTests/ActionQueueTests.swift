import Dispatch
import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing

/// T-UI4: an Action that queues (`whileExecuting: .queue`): what is applied while it runs waits
/// its turn, in order, and nothing applied is dropped (issue 57: two to-dos typed back to back).
@Suite struct ActionQueueTests {
    /// An action that queues, whose work for `input` gives `output(input)` a second after it
    /// starts; and the inputs whose work started, in order.
    static func secondLong(
        on scheduler: TestScheduler, _ output: @escaping @Sendable (Int) -> Int
    ) -> (Action<Int, Int, TestError>, Locked<[Int]>) {
        let started = Locked<[Int]>([])
        let action = Action<Int, Int, TestError>(whileExecuting: .queue) { input in
            Signal.deferred {
                started.withLock { $0.append(input) }
                return Signal.just(output(input)).delay(for: .seconds(1), on: scheduler)
            }
        }
        return (action, started)
    }

    @Test func applyingWhileExecutingWaitsItsTurnInOrder() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let (action, started) = Self.secondLong(on: scheduler) { $0 * 10 }
        let executing = scheduler.record(action.isExecuting.signal)
        let outputs = scheduler.record(action.outputs)
        let first = scheduler.record(action.apply(1))
        let second = scheduler.record(action.apply(2))
        let third = scheduler.record(action.apply(3))
        #expect(started.value == [1], "the second waits while the first runs")
        #expect(action.isEnabled.value, "an action that queues takes an application while it runs")
        scheduler.run()
        #expect(started.value == [1, 2, 3])
        #expect(first.elements == [.value(10), .completed])
        #expect(second.elements == [.value(20), .completed])
        #expect(third.elements == [.value(30), .completed])
        #expect(outputs.recordedValues == [10, 20, 30])
        #expect(executing.recordedValues == [false, true, false], "executing until the last one waiting has run")
        #expect(scheduler.now == SchedulerInstant(sinceEpoch: .seconds(3)), "one after another, not at once")
    }

    @Test func theClosureReadsTheViewModelWhenAppliedAndTheStreamStartsInTurn() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let field = MutableProperty("milk")
        let subscribed = Locked<[String]>([])
        let action = Action<Void, String, Never>(whileExecuting: .queue) { _ in
            let title = field.value
            field.value = ""
            return Signal.deferred {
                subscribed.withLock { $0.append(title) }
                return Signal.just(title).delay(for: .seconds(1), on: scheduler)
            }
        }
        action.execute()
        field.value = "tea"
        action.execute()
        #expect(field.value == "", "each application took the field's text at once")
        #expect(subscribed.value == ["milk"])
        scheduler.run()
        #expect(subscribed.value == ["milk", "tea"])
    }

    @Test func aDisabledActionThatQueuesIsStillRefused() {
        let enabled = MutableProperty(false)
        let calls = Locked(0)
        let action = Action<Void, Int, TestError>(enabledIf: enabled.readOnly, whileExecuting: .queue) { _ in
            calls.withLock { $0 += 1 }
            return .just(1)
        }
        let refused = Recorder<Int, ActionError<TestError>>()
        refused.subscribe(to: action.apply())
        #expect(refused.elements == [.failed(.disabled)])
        #expect(calls.value == 0, "a refused application calls nothing")
        enabled.value = true
        let accepted = Recorder<Int, ActionError<TestError>>()
        accepted.subscribe(to: action.apply())
        #expect(accepted.elements == [.value(1), .completed])
    }

    @Test func oneDisposedBeforeItsTurnNeverStartsAndTheNextRuns() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let (action, started) = Self.secondLong(on: scheduler) { $0 }
        let first = scheduler.record(action.apply(1))
        let second = action.apply(2).sink()
        let third = scheduler.record(action.apply(3))
        second.dispose()
        scheduler.run()
        #expect(started.value == [1, 3])
        #expect(first.elements == [.value(1), .completed])
        #expect(third.elements == [.value(3), .completed])
        #expect(!action.isExecuting.value)
    }

    @Test func oneDisposedWhileItRunsEndsItsTurn() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-----a|")
        let action = Action<Int, String, TestError>(whileExecuting: .queue) { input in
            input == 1 ? source.signal : .just("second")
        }
        let first = action.apply(1).sink()
        let second = scheduler.record(action.apply(2))
        #expect(second.events.isEmpty)
        first.dispose()
        #expect(source.subscriptions == ["[^!]"], "subscribed, then disposed, at the same instant")
        #expect(second.elements == [.value("second"), .completed], "the next starts when the running one is disposed")
        #expect(!action.isExecuting.value)
        scheduler.run()
    }

    @Test func aFailureEndsItsTurnAndTheNextRuns() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let action = Action<Int, Int, TestError>(whileExecuting: .queue) { input in
            input == 1
                ? Signal<Int, TestError>.fail(TestError("boom")).delay(for: .seconds(1), on: scheduler)
                : Signal.just(input).delay(for: .seconds(1), on: scheduler)
        }
        let errors = scheduler.record(action.errors)
        let first = scheduler.record(action.apply(1))
        let second = scheduler.record(action.apply(2))
        scheduler.run()
        #expect(first.elements == [.failed(.failed(TestError("boom")))])
        #expect(second.elements == [.value(2), .completed])
        #expect(errors.recordedValues == [TestError("boom")])
    }

    /// T-BEYOND5, generated: applications from several threads at once, each work finishing on another
    /// thread after a random pause: every one runs exactly once, never two at a time, and
    /// `isExecuting` ends `false`.
    @Test(arguments: 0..<6) func concurrentApplicationsAllRunOneAtATime(seed: Int) {
        var random = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pauses = (0..<48).map { _ in
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(random >> 60)   // 0 to 15 µs
        }
        let running = Locked(0)
        let overlaps = Locked(0)
        let ran = Locked<[Int]>([])
        let action = Action<Int, Int, Never>(whileExecuting: .queue) { input in
            Signal { observer in
                if running.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
                DispatchQueue.global().async {
                    usleep(UInt32(pauses[input]))
                    ran.withLock { $0.append(input) }
                    running.withLock { $0 -= 1 }
                    observer.send(input)
                    observer.sendCompleted()
                }
                return NopDisposable()
            }
        }
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: pauses.count) { index in
            done.enter()
            _ = action.apply(index).sink(completion: { completion in
                #expect(completion.failure == nil)
                done.leave()
            })
        }
        #expect(done.wait(timeout: .now() + 20) == .success, "every application ran")
        #expect(Set(ran.value) == Set(0..<pauses.count))
        #expect(ran.value.count == pauses.count, "each once")
        #expect(overlaps.value == 0, "never two at a time")
        #expect(!action.isExecuting.value)
    }
}
