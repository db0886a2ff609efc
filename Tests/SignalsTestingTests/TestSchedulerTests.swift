import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-TEST1: the virtual-time scheduler.
@Suite struct TestSchedulerTests {
    @Test func runsActionsInDueOrderWithFifoTies() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let log = Locked<[String]>([])
        _ = scheduler.schedule(after: .seconds(2)) { log.withLock { $0.append("late") } }
        _ = scheduler.schedule(after: .seconds(1)) { log.withLock { $0.append("tie 1") } }
        _ = scheduler.schedule(after: .seconds(1)) { log.withLock { $0.append("tie 2") } }
        scheduler.schedule { log.withLock { $0.append("now") } }
        #expect(log.withLock { $0 }.isEmpty, "nothing runs before the clock moves")
        scheduler.advance()
        #expect(log.withLock { $0 } == ["now"])
        scheduler.advance(by: .seconds(1))
        #expect(log.withLock { $0 } == ["now", "tie 1", "tie 2"])
        #expect(scheduler.now == SchedulerInstant(sinceEpoch: .seconds(1)))
        scheduler.run()
        #expect(log.withLock { $0 } == ["now", "tie 1", "tie 2", "late"])
        #expect(scheduler.now == SchedulerInstant(sinceEpoch: .seconds(2)))
    }

    @Test func actionsScheduledWhileAdvancingRunIfDueWithinTheSpan() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let times = Locked<[Duration]>([])
        _ = scheduler.schedule(after: .seconds(1)) {
            times.withLock { $0.append(scheduler.now.sinceEpoch) }
            _ = scheduler.schedule(after: .seconds(1)) { times.withLock { $0.append(scheduler.now.sinceEpoch) } }
            _ = scheduler.schedule(after: .seconds(5)) { times.withLock { $0.append(scheduler.now.sinceEpoch) } }
        }
        scheduler.advance(by: .seconds(3))
        #expect(times.withLock { $0 } == [.seconds(1), .seconds(2)])
        #expect(scheduler.now.sinceEpoch == .seconds(3))
        #expect(scheduler.pendingActionCount == 1)
    }

    @Test func disposingAScheduledActionRemovesIt() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let ran = Locked(false)
        let action = scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
        action.dispose()
        #expect(scheduler.pendingActionCount == 0)
        scheduler.run()
        #expect(!ran.withLock { $0 })
    }

    @Test func scheduleAtTickCountsFromTimeZero() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let ticks = Locked<[Int]>([])
        scheduler.advance(to: SchedulerInstant(sinceEpoch: scheduler.tick * 3))
        scheduler.schedule(atTick: 5) { ticks.withLock { $0.append(scheduler.nowInTicks) } }
        scheduler.schedule(atTick: 2) { ticks.withLock { $0.append(scheduler.nowInTicks) } }
        scheduler.run()
        #expect(ticks.value == [3, 5], "tick 5 is absolute; tick 2 has passed, so it runs at once")
    }

    @Test func ticksAreConfigurable() {
        let scheduler = TestScheduler(tick: .milliseconds(100))
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-|")
        let recorder = scheduler.record(source.signal)
        scheduler.run()
        #expect(recorder.events.map(\.time.sinceEpoch) == [.milliseconds(100), .milliseconds(300)])
        #expect(scheduler.nowInTicks == 3)
    }
}

/// T-TEST2: recorded events with times; hot and cold sources.
@Suite struct RecorderAndSourceTests {
    @Test func recorderStampsEventsWithVirtualTime() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<Int, TestError>()
        let recorder = scheduler.record(subject.signal)
        _ = scheduler.schedule(after: .seconds(2)) { subject.send(1) }
        _ = scheduler.schedule(after: .seconds(5)) { subject.sendFailed(TestError("x")) }
        scheduler.run()
        #expect(recorder.events == [
            Recorded(time: SchedulerInstant(sinceEpoch: .seconds(2)), element: .value(1)),
            Recorded(time: SchedulerInstant(sinceEpoch: .seconds(5)), element: .failed(TestError("x"))),
        ])
        #expect(recorder.recordedValues == [1])
        #expect(recorder.failure == TestError("x"))
        #expect(!recorder.isCompleted)
    }

    @Test func coldSourcesReplayForEachSubscriber() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-|")
        let first = scheduler.record(source.signal, subscribeAt: 0)
        let second = scheduler.record(source.signal, subscribeAt: 2)
        scheduler.run()
        #expect(scheduler.diagram(of: first) == "-a-|")
        #expect(scheduler.diagram(of: second) == "---a-|")
        #expect(source.subscriptions == ["^--!", "--^--!"])
    }

    @Test func hotSourcesPlayOnceWhoeverListens() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-|")
        let late = scheduler.record(source.signal, subscribeAt: 2)
        scheduler.run()
        #expect(scheduler.diagram(of: late, showSubscription: true) == "--^b-c-|")
        #expect(source.subscriptions == ["--^----!"])
    }

    @Test func hotSourceWithCaretStartsAtTheCaret() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("a-^-b-|")
        #expect(scheduler.marbles(of: source.signal) == "--b-|", "'^' is time zero; 'a' is in the past")
    }

    @Test func sourcesWithTypedValuesAndErrors() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-1-2-#", values: ["1": 10, "2": 20], error: TestError("custom"))
        let recorder = scheduler.record(source.signal)
        scheduler.run()
        #expect(recorder.elements == [.value(10), .value(20), .failed(TestError("custom"))])
        let again = TestScheduler()
        defer { again.cancelAll() }
        let replay = again.cold("-1-2-#", values: ["1": 10, "2": 20], error: TestError("custom"))
        #expect(again.marbles(of: replay.signal, values: ["1": 10, "2": 20]) == "-1-2-#")
    }
}

/// T-TEST3: marble diagrams.
@Suite struct MarbleDiagramTests {
    @Test func parsesEveryElementOfTheGrammar() throws {
        let diagram = try MarbleDiagram(parsing: "^-a-[bc]-(long)-!")
        #expect(diagram.ticks.map(\.tick) == [0, 2, 4, 6, 8])
        #expect(diagram.allMarks == [.subscribed, .value("a"), .value("b"), .value("c"), .value("long"), .disposed])
        #expect(diagram.subscriptionTick == 0)
        #expect(diagram.disposalTick == 8)
        #expect(diagram.length == 9)
    }

    @Test func spacesAlignWithoutTakingTime() throws {
        #expect(try MarbleDiagram(parsing: "  -a - |") == MarbleDiagram(parsing: "-a-|"))
    }

    @Test func printsTheCanonicalForm() throws {
        for text in ["-a-b-|", "[ab]-#", "--(abc)-[d|]", "---", "|"] {
            #expect(try MarbleDiagram(parsing: text).description == text)
        }
    }

    @Test func reportsSyntaxErrorsWithTheirPlace() {
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: "-a-[b") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: "-a-|-b") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: "-|-#") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: "-a-*") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(parsing: "-[a-b]") }
        do {
            _ = try MarbleDiagram(parsing: "-a-*")
        } catch {
            #expect(error.position == 3)
            #expect(error.description.contains("unexpected '*'"))
        }
    }

    @Test func assertsAStreamAgainstAnExpectedDiagram() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-b-c-|")
        let actual = scheduler.marbles(of: source.signal.filter { $0 != "b" }, subscribeAt: 1, disposeAt: 7)
        #expect(actual == "-^a---c!")
        // At one instant, what was scheduled first runs first: the disposal at tick 6 was
        // scheduled before the source's `c`, so `c` is not delivered.
        let other = TestScheduler()
        defer { other.cancelAll() }
        #expect(other.marbles(of: other.cold("-a-b-c-|").signal, subscribeAt: 1, disposeAt: 6) == "-^a-b-!")
    }

    @Test func differentDiagramsDoNotMatch() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-|")
        #expect(scheduler.marbles(of: source.signal) != "-a--|")
        #expect(scheduler.marbles(of: scheduler.cold("-a-|").signal) != "-b-|")
    }

    @Test func eventsBetweenTicksAreShownAsSuch() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let subject = PublishSubject<String, Never>()
        _ = scheduler.schedule(after: .milliseconds(1_500)) { subject.send("a") }
        let diagram = scheduler.marbles(of: subject.signal)
        #expect(diagram.hasPrefix("-a"))
        #expect(diagram.contains("between ticks"))
    }
}
