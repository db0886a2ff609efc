import Dispatch
import Foundation
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
                Thread {
                    gate.wait()
                    observer.send(1)
                    observer.sendCompleted()
                }.start()
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
    /// T-G2: no lock of the action is held while its user code runs: the work, and observers of
    /// `isExecuting`, `isEnabled`, `outputs` and `errors`, may each re-enter the action on their
    /// own thread (apply it, read it, dispose the running execution, flip its gate). With a lock
    /// held across any of those calls this would deadlock (caught by the time limit) or trap.
    /// (It replaces a test named after `enabledIf`'s transform, which never runs on a read, so
    /// that test could not fail.)
    @Test func userCodeMayReEnterTheActionFromEveryCallOut() {
        let gate = MutableProperty(true)
        // The work answers when the test says, so the execution's subscription is held (in
        // `running`) when it ends, and the `false` observer below disposes that very execution.
        let work = Locked<Observer<Int, TestError>?>(nil)
        let action = Action<Int, Int, TestError>(enabledIf: gate.readOnly) { input in
            Signal { observer in
                work.withLock { $0 = observer }
                return NopDisposable()
            }
        }
        @Sendable func answer(_ input: Int) {
            let observer = work.value!
            observer.send(input)
            if input < 0 { observer.sendFailed(TestError("negative")) } else { observer.sendCompleted() }
        }
        let log = Locked<[String]>([])
        let running = SerialDisposable()
        let bag = DisposeBag()
        action.isExecuting.changes.sink { executing in
            log.withLock { $0.append("executing \(executing) enabled \(action.isEnabled.value)") }
            // Disposing the execution from its own `false`: the action's finish runs again,
            // re-entrantly, on this thread.
            if !executing { running.inner = nil }
        }.disposed(by: bag)
        action.outputs.sink { value in
            let refused = Locked(false)
            _ = action.apply(value).sink(completion: { if case .failed(.disabled) = $0 { refused.withLock { $0 = true } } })
            log.withLock { $0.append("output \(value) reapply refused \(refused.value)") }
        }.disposed(by: bag)
        action.errors.sink { _ in
            gate.value = false  // the gate flips while the action reports
            log.withLock { $0.append("error, gate \(gate.value), enabled \(action.isEnabled.value)") }
            gate.value = true
        }.disposed(by: bag)
        action.isEnabled.changes.sink { enabled in
            log.withLock { $0.append("enabled \(enabled) executing \(action.isExecuting.value)") }
        }.disposed(by: bag)
        let done = DispatchSemaphore(value: 0)
        Thread {
            running.inner = action.apply(1).sink()
            answer(1)
            running.inner = action.apply(-1).sink()
            answer(-1)
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 60) == .success else {
            Issue.record("a call-out re-entering the action hung: a lock was held")
            // The hung thread is delivering; disposing its observers would wait for it forever.
            _ = Unmanaged.passRetained(bag)
            return
        }
        #expect(log.value == [
            "executing true enabled false", "enabled false executing true",
            "output 1 reapply refused true",
            "executing false enabled true", "enabled true executing false",
            "executing true enabled false", "enabled false executing true",
            "output -1 reapply refused true",
            "executing false enabled true", "enabled true executing false",
            "enabled false executing false", "error, gate false, enabled false", "enabled true executing false",
        ])
    }

    /// Issue 28: two threads applying an action that ends at once, 20,000 times: `isExecuting`
    /// and `isEnabled` deliver each change once, in the order the action changed (true, false,
    /// true, …), never the same value twice in a row, and end on what the action reads. (If the
    /// action decided under one lock and published `isExecuting` after, one thread's `false`
    /// could land after the other's `true`.)
    @Test func concurrentAppliesDeliverEveryChangeOnceInOrder() {
        let action = Action<Int, Int, Never> { .just($0) }
        let executing = Recorder<Bool, Never>()
        executing.subscribe(to: action.isExecuting.signal)
        let enabled = Recorder<Bool, Never>()
        enabled.subscribe(to: action.isEnabled.signal)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for value in 0..<10_000 { _ = action.apply(thread * 10_000 + value).sink() }
        }
        for (name, values, now) in [("isExecuting", executing.recordedValues, action.isExecuting.value), ("isEnabled", enabled.recordedValues, action.isEnabled.value)] {
            let repeats = zip(values, values.dropFirst()).filter { $0 == $1 }.count
            #expect(repeats == 0, "\(name) delivered the same value twice in a row \(repeats) times")
            #expect(values.last == now)
        }
        #expect(!action.isExecuting.value && action.isEnabled.value)
    }

    /// Issue 28: a button bound to an action never reads enabled while a press would be
    /// refused. The window: one thread has started the action while the change of
    /// `isExecuting` still waits for its turn behind another thread's delivery. `isEnabled`
    /// must read false then, exactly as `apply` decides. (Before the fix the action set its own
    /// flag first and `isExecuting` after, and `isEnabled` was a cache updated on delivery: it
    /// read true here while `apply` refused.)
    @Test func aButtonNeverReadsEnabledWhileAPressWouldBeRefused() {
        let action = Action<Int, Int, Never> { .just($0) }
        let insideDelivery = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blockOnce = Locked(true)
        // An observer that holds the delivery of `isExecuting`'s `false` on thread B.
        let slow = action.isExecuting.changes.sink { executing in
            guard !executing, blockOnce.withLock({ let first = $0; $0 = false; return first }) else { return }
            insideDelivery.signal()
            release.wait()
        }
        let threadB = DispatchSemaphore(value: 0)
        Thread {
            _ = action.apply(1).sink()  // runs and ends; its `false` is held in delivery
            threadB.signal()
        }.start()
        insideDelivery.wait()
        // Thread C presses while B's delivery is under way: it starts (the action is free) and
        // its `true` waits for B's delivery to finish.
        let threadC = DispatchSemaphore(value: 0)
        let cStarted = Locked<Bool?>(nil)
        Thread {
            _ = action.apply(2).sink(value: { _ in cStarted.withLock { $0 = true } }, completion: { completion in
                if case .failed = completion { cStarted.withLock { $0 = false } }
            })
            threadC.signal()
        }.start()
        // Wait until C has started: `isExecuting.value` reads true as soon as the change is made
        // (its delivery waits behind B's, so C cannot finish before `release`).
        let deadline = ContinuousClock.now + .seconds(10)
        while !action.isExecuting.value, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(action.isExecuting.value, "thread C did not start")
        let reads = action.isEnabled.value
        let pressed = Recorder<Int, ActionError<Never>>()
        pressed.subscribe(to: action.apply(3))
        let refused = pressed.elements == [.failed(.disabled)]
        #expect(reads == !refused, "isEnabled read \(reads) but a press was \(refused ? "refused" : "started")")
        #expect(action.isExecuting.value == refused)
        release.signal()
        threadB.wait()
        threadC.wait()
        slow.dispose()
        #expect(!action.isExecuting.value && action.isEnabled.value)
    }
}
