import Dispatch
import MVVM
import Signals
import SignalsTesting
import Testing

/// T-UI4: Action, the successor of RACCommand.
@Suite struct ActionTests {
    @Test func runsTheWorkAndReportsExecutingValuesAndCompletion() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let action = Action<Int, String, TestError> { input in
            Signal.just("result \(input)").delay(for: .seconds(1), on: scheduler)
        }
        let executing = scheduler.record(action.isExecuting.signal)
        let enabled = scheduler.record(action.isEnabled.signal)
        let values = scheduler.record(action.outputs)
        let result = scheduler.record(action.apply(7))
        scheduler.run()
        #expect(result.elements == [.value("result 7"), .completed])
        #expect(values.recordedValues == ["result 7"])
        #expect(executing.recordedValues == [false, true, false])
        #expect(enabled.recordedValues == [true, false, true])
    }

    @Test func applyingWhileExecutingIsRefusedWithDisabledAndStartsNothing() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let starts = Locked(0)
        let action = Action<Void, Int, TestError> { _ in
            Signal.deferred {
                starts.withLock { $0 += 1 }
                return Signal.just(1).delay(for: .seconds(1), on: scheduler)
            }
        }
        let errors = scheduler.record(action.errors)
        let first = scheduler.record(action.apply())
        let second = scheduler.record(action.apply())
        scheduler.run()
        #expect(second.elements == [.failed(.disabled)])
        #expect(first.elements == [.value(1), .completed])
        #expect(starts.value == 1)
        #expect(errors.events.isEmpty, "a refused attempt is not an error of the work")
    }

    @Test func applyingWhileDisabledIsRefused() {
        let enabled = MutableProperty(false)
        let action = Action<Void, Int, TestError>(enabledIf: enabled.readOnly) { _ in .just(1) }
        let refused = Recorder<Int, ActionError<TestError>>()
        refused.subscribe(to: action.apply())
        #expect(refused.elements == [.failed(.disabled)])
        #expect(!action.isEnabled.value)
        enabled.value = true
        #expect(action.isEnabled.value)
        let accepted = Recorder<Int, ActionError<TestError>>()
        accepted.subscribe(to: action.apply())
        #expect(accepted.elements == [.value(1), .completed])
    }

    @Test func failuresReachErrorsAndTheApplyingStream() {
        let action = Action<Void, Int, TestError> { _ in .fail(TestError("server")) }
        let errors = Recorder<TestError, Never>()
        errors.subscribe(to: action.errors)
        let result = Recorder<Int, ActionError<TestError>>()
        result.subscribe(to: action.apply())
        #expect(result.elements == [.failed(.failed(TestError("server")))])
        #expect(errors.recordedValues == [TestError("server")])
        #expect(!action.isExecuting.value)
        // After a failure the action is enabled again, and an error after a refused attempt is
        // still reported (RxSwift Action's known race).
        let again = Recorder<Int, ActionError<TestError>>()
        again.subscribe(to: action.apply())
        #expect(errors.recordedValues.count == 2)
    }

    @Test func latestValueAndLatestFailureFollowTheExecutions() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let failing = Locked(true)
        let action = Action<Void, Int, TestError> { _ in
            Signal.deferred {
                failing.value ? .fail(TestError("offline")) : .just(42)
            }.delay(for: .seconds(1), on: scheduler)
        }
        let failures = scheduler.record(action.latestFailure.signal)
        #expect(action.latestValue.value == nil && action.latestFailure.value == nil)
        action.execute()
        scheduler.run()
        #expect(action.latestFailure.value == TestError("offline"))
        #expect(action.latestValue.value == nil, "a failure leaves no value")
        failing.withLock { $0 = false }
        action.execute()
        #expect(action.latestFailure.value == nil, "starting again clears the failure")
        scheduler.run()
        #expect(failures.recordedValues.compactMap { $0 } == [TestError("offline")])
        #expect(failures.recordedValues.last == .some(nil))
        // Read only now, after the run: the action kept it.
        #expect(action.latestValue.value == 42)
    }

    @Test func executingTurnsFalseBeforeTheTerminalEventSoTheObserverCanApplyAgain() {
        let action = Action<Int, Int, Never> { .just($0) }
        let results = Locked<[Int]>([])
        let reapplied = Locked<(any Disposable)?>(nil)
        _ = action.apply(1).sink(value: { value in results.withLock { $0.append(value) } }, completion: { _ in
            #expect(action.isEnabled.value, "enabled again when the completion arrives")
            reapplied.withLock { $0 = action.apply(2).sink(value: { value in results.withLock { $0.append(value) } }) }
        })
        #expect(results.value == [1, 2])
    }

    @Test func disposingTheAppliedStreamCancelsTheWorkAndEndsExecuting() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("---a-|")
        let action = Action<Void, String, TestError> { _ in source.signal }
        let result = scheduler.record(action.apply(), subscribeAt: 0, disposeAt: 1)
        scheduler.run()
        #expect(result.events.isEmpty)
        #expect(source.subscriptions == ["^!"])
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
    }

    @Test func concurrentAppliesStartTheWorkOnce() {
        let starts = Locked(0)
        let gate = DispatchSemaphore(value: 0)
        let action = Action<Void, Int, Never> { _ in
            Signal { observer in
                starts.withLock { $0 += 1 }
                DispatchQueue.global().async {
                    gate.wait()
                    observer.send(1)
                    observer.sendCompleted()
                }
                return NopDisposable()
            }
        }
        let refusals = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            _ = action.apply().sink(completion: { completion in
                if case .failed(.disabled) = completion { refusals.withLock { $0 += 1 } }
            })
        }
        #expect(starts.value == 1)
        #expect(refusals.value == 7)
        gate.signal()
    }

    @Test func asyncWork() async throws {
        let action = Action<Int, Int, TestError> { (input: Int) async throws(TestError) -> Int in
            if input < 0 { throw TestError("negative") }
            return input * 2
        }
        #expect(try await action.apply(21).allValues() == [42])
        await #expect(throws: ActionError<TestError>.failed(TestError("negative"))) {
            try await action.apply(-1).allValues()
        }
    }

    /// T-G2: `enabledIf` may be derived by user code, and that code may use the action itself
    /// (here: it applies the action once). Reading it under the action's lock deadlocked.
    @Test func enabledIfIsEvaluatedOutsideTheActionsLock() {
        let gate = MutableProperty(true)
        let holder = Locked<Action<Int, Int, Never>?>(nil)
        let reentered = Locked(false)
        let enabled = gate.readOnly.map { open -> Bool in
            let first = reentered.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            if first, let action = holder.value { _ = action.apply(1).sink() }
            return open
        }
        let action = Action(enabledIf: enabled) { (value: Int) in Signal<Int, Never>.just(value * 10) }
        holder.withLock { $0 = action }
        let results = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = action.apply(2).sink(value: { value in results.withLock { $0.append(value) } })
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success, "apply hung: enabledIf ran under the action's lock")
        #expect(results.value == [20])
        holder.withLock { $0 = nil }
    }
}
