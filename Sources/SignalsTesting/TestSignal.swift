import Signals
import Synchronization

/// A test source built from a marble diagram, which logs every subscription to it.
///
/// Make one with ``TestScheduler/cold(_:values:error:name:)`` or ``TestScheduler/hot(_:values:error:name:)``
/// and subscribe through ``signal``. ``subscriptions`` tells when each subscription started and
/// ended, as marbles, so a test can assert that an operator subscribed and disposed when it
/// should:
///
/// ```swift
/// #expect(source.subscriptions == ["^--!"])
/// ```
public final class TestSignal<Value: Sendable, Failure: Error>: Sendable {
    /// The stream to subscribe to.
    public let signal: Signal<Value, Failure>
    let log: SubscriptionLog

    init(signal: Signal<Value, Failure>, log: SubscriptionLog) {
        self.signal = signal
        self.log = log
    }

    /// One diagram per subscription: `^` where it started, `!` where it ended (disposed, or the
    /// source's terminal event), both at the same tick as `[^!]`.
    public var subscriptions: [String] { log.diagrams }

    /// How many subscriptions have started and not yet ended.
    public var activeSubscriptionCount: Int { log.activeCount }
}

/// When subscriptions to one test source started and ended.
final class SubscriptionLog: Sendable {
    private struct Entry {
        var start: SchedulerInstant
        var end: SchedulerInstant?
    }

    let name: String
    /// The scheduler's clock, held weakly: the scheduler keeps its logs (for leak checks), so a
    /// strong reference back would keep every scheduler with a test source alive forever.
    private let clock: @Sendable () -> SchedulerInstant
    private let tick: Duration
    private let entries = Locked<[Entry]>([])

    init(name: String, scheduler: TestScheduler) {
        self.name = name
        self.clock = { [weak scheduler] in scheduler?.now ?? .zero }
        self.tick = scheduler.tick
    }

    func start() -> Int {
        let now = clock()
        return entries.withLock { entries in
            entries.append(Entry(start: now))
            return entries.count - 1
        }
    }

    func end(_ index: Int) {
        let now = clock()
        entries.withLock { entries in
            if entries[index].end == nil { entries[index].end = now }
        }
    }

    var activeCount: Int {
        entries.withLock { $0.filter { $0.end == nil }.count }
    }

    var diagrams: [String] {
        let entries = self.entries.withLock { $0 }
        return entries.map { entry in
            var marks: [(tick: Int, mark: MarbleDiagram.Mark)] = [(Int(entry.start.sinceEpoch / tick), .subscribed)]
            if let end = entry.end { marks.append((Int(end.sinceEpoch / tick), .disposed)) }
            return MarbleDiagram(marks: marks).description
        }
    }
}

/// Every test source of a scheduler, for leak checks.
final class TestSignalRegistry: Sendable {
    private let logs = Locked<[SubscriptionLog]>([])

    func add(_ log: SubscriptionLog) {
        logs.withLock { $0.append(log) }
    }

    var all: [SubscriptionLog] { logs.withLock { $0 } }
}

extension TestScheduler {
    /// A cold test source: each subscription replays `diagram` from its own start time.
    ///
    /// `values` maps each value's text in the diagram to the value; `#` fails with `error`.
    public func cold<Value, Failure>(
        _ diagram: String,
        values: [String: Value],
        error: Failure,
        name: String? = nil
    ) -> TestSignal<Value, Failure> {
        let parsed = MarbleDiagram.parseOrDie(diagram)
        precondition(parsed.subscriptionTick == nil && parsed.disposalTick == nil,
                     "cold(\"\(diagram)\"): '^' and '!' belong in expected diagrams, not in a cold source")
        let events = Self.events(of: parsed, diagram: diagram, values: values, error: error)
        let log = SubscriptionLog(name: name ?? "cold(\"\(diagram)\")", scheduler: self)
        registry.add(log)
        let tick = self.tick
        let signal = Signal<Value, Failure> { [self] observer in
            let index = log.start()
            let scheduled = CompositeDisposable()
            for (offset, event) in events {
                scheduled.add(schedule(after: tick * offset) { observer.send(event: event) })
            }
            return AnyDisposable {
                log.end(index)
                scheduled.dispose()
            }
        }
        return TestSignal(signal: signal, log: log)
    }

    /// A hot test source: `diagram` plays once, in absolute virtual time from now, whoever is
    /// subscribed. With a `^` in the diagram, time zero is at the `^` and events before it are
    /// considered past and never sent.
    public func hot<Value, Failure>(
        _ diagram: String,
        values: [String: Value],
        error: Failure,
        name: String? = nil
    ) -> TestSignal<Value, Failure> {
        let parsed = MarbleDiagram.parseOrDie(diagram)
        let origin = parsed.subscriptionTick ?? 0
        let subject = PublishSubject<Value, Failure>()
        for (tick, event) in Self.events(of: parsed, diagram: diagram, values: values, error: error) where tick >= origin {
            _ = schedule(after: self.tick * (tick - origin)) { subject.observer.send(event: event) }
        }
        let log = SubscriptionLog(name: name ?? "hot(\"\(diagram)\")", scheduler: self)
        registry.add(log)
        let signal = Signal<Value, Failure> { observer in
            let index = log.start()
            let subscription = subject.signal.subscribe(observer)
            return AnyDisposable {
                log.end(index)
                subscription.dispose()
            }
        }
        return TestSignal(signal: signal, log: log)
    }

    /// A cold source whose values are the diagram's value texts and whose `#` is a ``TestError``.
    public func cold(_ diagram: String, name: String? = nil) -> TestSignal<String, TestError> {
        cold(diagram, values: Self.identityValues(diagram), error: TestError(), name: name)
    }

    /// A cold source with values from `values` and `#` as a ``TestError``.
    public func cold<Value>(_ diagram: String, values: [String: Value], name: String? = nil) -> TestSignal<Value, TestError> {
        cold(diagram, values: values, error: TestError(), name: name)
    }

    /// A hot source whose values are the diagram's value texts and whose `#` is a ``TestError``.
    public func hot(_ diagram: String, name: String? = nil) -> TestSignal<String, TestError> {
        hot(diagram, values: Self.identityValues(diagram), error: TestError(), name: name)
    }

    /// A hot source with values from `values` and `#` as a ``TestError``.
    public func hot<Value>(_ diagram: String, values: [String: Value], name: String? = nil) -> TestSignal<Value, TestError> {
        hot(diagram, values: values, error: TestError(), name: name)
    }

    /// Descriptions of the test-source subscriptions of this scheduler that have not ended, for
    /// leak checks: `#expect(scheduler.activeSubscriptions.isEmpty)`.
    public var activeSubscriptions: [String] {
        registry.all.compactMap { log in
            let count = log.activeCount
            return count == 0 ? nil : "\(log.name): \(count) subscription\(count == 1 ? "" : "s") still active"
        }
    }

    static func identityValues(_ diagram: String) -> [String: String] {
        var values: [String: String] = [:]
        for case .value(let text) in MarbleDiagram.parseOrDie(diagram).allMarks { values[text] = text }
        return values
    }

    static func events<Value, Failure>(
        of diagram: MarbleDiagram,
        diagram text: String,
        values: [String: Value],
        error: Failure
    ) -> [(tick: Int, event: Event<Value, Failure>)] {
        diagram.ticks.flatMap { tick, marks in
            marks.compactMap { mark -> (tick: Int, event: Event<Value, Failure>)? in
                switch mark {
                case .value(let key):
                    guard let value = values[key] else {
                        preconditionFailure("marble diagram \"\(text)\": no value given for '\(key)' (values has \(values.keys.sorted()))")
                    }
                    return (tick, .value(value))
                case .completed: return (tick, .completed)
                case .failed: return (tick, .failed(error))
                case .subscribed, .disposed: return nil
                }
            }
        }
    }
}
