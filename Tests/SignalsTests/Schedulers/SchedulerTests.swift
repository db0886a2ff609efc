import Dispatch
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-CORE7: schedulers, observe(on:), subscribe(on:).
@Suite struct SchedulerTests {
    @Test func observeOnDeliversEveryEventThroughTheScheduler() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<Int, Never>()
        let recorder = scheduler.record(subject.signal.observe(on: scheduler))
        subject.send(1)
        subject.sendCompleted()
        #expect(recorder.events.isEmpty, "nothing arrives until the scheduler runs")
        scheduler.advance()
        #expect(recorder.elements == [.value(1), .completed])
    }

    @Test func observeOnDropsScheduledEventsAfterDisposal() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<Int, Never>()
        let recorder = scheduler.record(subject.signal.observe(on: scheduler))
        subject.send(1)
        recorder.dispose()
        scheduler.advance()
        #expect(recorder.events.isEmpty)
        #expect(subject.subscriberCount == 0)
    }

    @Test func subscribeOnRunsTheProducerOnTheScheduler() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subscribed = Locked(false)
        let signal = Signal<Int, Never> { observer in
            subscribed.withLock { $0 = true }
            observer.send(1)
            return NopDisposable()
        }
        let recorder = scheduler.record(signal.subscribe(on: scheduler))
        #expect(!subscribed.withLock { $0 })
        scheduler.advance()
        #expect(subscribed.withLock { $0 })
        #expect(recorder.recordedValues == [1])
    }

    @Test func subscribeOnDisposedBeforeItRunsNeverSubscribes() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        let recorder = scheduler.record(source.signal.subscribe(on: scheduler))
        recorder.dispose()
        scheduler.run()
        #expect(source.subscriptions.isEmpty)
        #expect(recorder.events.isEmpty)
    }

    @Test func serialQueueSchedulerRunsInOrderOnItsQueue() throws {
        let scheduler = SerialQueueScheduler(label: "test.serial")
        let values = try (1...100).signal.observe(on: scheduler).blocking().toArray()
        #expect(values == Array(1...100))
    }

    @Test func serialQueueSchedulerDelayedActionCanBeCancelled() throws {
        let scheduler = SerialQueueScheduler(label: "test.delay")
        let ran = Locked(false)
        // 200 ms: disposing right after scheduling must win even on a loaded machine (with 1 ms
        // the action sometimes ran first under the sanitizers).
        let cancelled = scheduler.schedule(after: .milliseconds(200)) { ran.withLock { $0 = true } }
        cancelled.dispose()
        let marker = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(after: .milliseconds(300)) { marker.signal() }
        #expect(marker.wait(timeout: .now() + 5) == .success)
        #expect(!ran.withLock { $0 })
    }

    @MainActor @Test func mainSchedulerRunsInlineOnTheMainThread() {
        #expect(MainScheduler.isMainThread)
        // Its own instance: `shared` may have work pending from tests running in parallel.
        let scheduler = MainScheduler()
        let ran = Locked(false)
        scheduler.schedule { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 }, "scheduled from the main thread with nothing pending: runs at once")
    }

    @Test func mainSchedulerHopsToTheMainThreadFromElsewhere() async {
        #expect(!MainScheduler.isMainThread)
        let onMain = await withCheckedContinuation { continuation in
            MainScheduler.shared.schedule { continuation.resume(returning: MainScheduler.isMainThread) }
        }
        #expect(onMain)
    }

    @MainActor @Test func runOnMainActorRunsAtOnceOnMainAndHopsFromElsewhere() async {
        let ran = Locked(false)
        MainScheduler.runOnMainActor { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 }, "called on the main thread: runs at once")
        let hopped = await Task.detached {
            #expect(!MainScheduler.isMainThread)
            return await withCheckedContinuation { continuation in
                MainScheduler.runOnMainActor { continuation.resume(returning: MainScheduler.isMainThread) }
            }
        }.value
        #expect(hopped)
    }

    @MainActor @Test func mainSchedulerAsyncAlwaysDispatches() async {
        let ran = Locked(false)
        await withCheckedContinuation { continuation in
            MainScheduler.async.schedule {
                ran.withLock { $0 = true }
                continuation.resume()
            }
            #expect(!ran.withLock { $0 }, "async must not run inline")
        }
        #expect(ran.withLock { $0 })
    }

    @Test func repeatingScheduleFollowsTheIntervalWithoutDrift() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let times = Locked<[Duration]>([])
        let timer = scheduler.schedule(after: .seconds(2), every: .seconds(3)) {
            times.withLock { $0.append(scheduler.now.sinceEpoch) }
        }
        scheduler.advance(by: .seconds(10))
        timer.dispose()
        scheduler.advance(by: .seconds(10))
        #expect(times.withLock { $0 } == [.seconds(2), .seconds(5), .seconds(8)])
    }

    @Test func immediateSchedulerRunsAtOnce() {
        let ran = Locked(0)
        ImmediateScheduler.shared.schedule { ran.withLock { $0 += 1 } }
        _ = ImmediateScheduler.shared.schedule(after: .seconds(5)) { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 2)
    }
}
