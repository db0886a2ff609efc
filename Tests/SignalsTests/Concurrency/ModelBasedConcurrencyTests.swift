import Dispatch
import PropertyBased
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-BEYOND5: random interleavings of subscribe, send, dispose and complete on three threads,
/// through subjects, a property, `share`, `merge`, `combineLatest` and `flatMapLatest`, checked
/// against a sequential reference of what each subscriber must (and must not) receive.
///
/// Every operation is stamped from one sequentially consistent counter when it starts and when
/// it returns, and every event when its observer is called. The reference is the order those
/// stamps give: a value whose `send` started after a subscription's `subscribe` returned and
/// returned before its `dispose` started must reach it, once, in each sender's order; nothing
/// reaches it after `dispose` returned (T-G1) or after its terminal event. The programs are
/// generated (and shrunk on failure) by PropertyBased.
@Suite struct ModelBasedConcurrencyTests {
    static let programs = 40
    static let program = Gen.int(in: 0...99).array(of: 4...40)

    @Test(arguments: Model.Target.allCases)
    func randomInterleavingsMatchTheReference(_ target: Model.Target) async {
        await propertyCheck(count: Self.programs, input: Self.program, Self.program, Self.program) { a, b, c in
            Model.run([a, b, c], target: target)
        }
    }
}

/// The system under test, the program runner and the reference.
enum Model {
    enum Target: CaseIterable, Sendable {
        case publish, replay, property, share, merge, combineLatest, flatMapLatest

        /// Whether every subscriber must receive each value sent wholly inside its window. Not
        /// for `share` (a subscriber that joins while another is still connecting may miss what
        /// is sent before the connection exists) nor for the operators whose output is not the
        /// input (combineLatest waits for both sides; flatMapLatest for its inner stream).
        var windowRule: Bool {
            switch self {
            case .publish, .replay, .property, .merge: true
            case .share, .combineLatest, .flatMapLatest: false
            }
        }

        /// How many values sent before a subscription may reach it (a replay, a current value).
        var earlyAllowed: Int {
            switch self {
            case .publish, .share, .merge: 0
            case .replay: 2
            case .property: 1
            case .combineLatest, .flatMapLatest: .max
            }
        }
    }

    enum Op: Equatable {
        case subscribe(Int), dispose(Int), send, complete

        init(_ code: Int) {
            switch code % 20 {
            case 0..<4: self = .subscribe(code / 20 % 2)
            case 4..<7: self = .dispose(code / 20 % 2)
            case 7: self = code >= 90 ? .complete : .send
            default: self = .send
            }
        }
    }

    /// What one subscription saw.
    final class Subscription: @unchecked Sendable {
        // SAFETY: `events` is behind a lock; the stamps are written by the thread that owns the
        // subscription and read after every thread has joined.
        let thread: Int
        var subscribeStart = 0, subscribeEnd = 0
        var disposeStart: Int?, disposeEnd: Int?
        let events = Locked<[(stamp: Int, event: Event<Int, Never>)]>([])
        var disposable: (any Disposable)?

        init(thread: Int) { self.thread = thread }
    }

    struct Send { let value: Int, start: Int, end: Int }

    /// A sequentially consistent counter: its order is consistent with every happens-before.
    final class Clock: Sendable {
        let counter = Atomic<Int>(0)
        func tick() -> Int { counter.add(1, ordering: .sequentiallyConsistent).newValue }
    }

    /// The stream under test, how to send into it and how to end it.
    struct System: Sendable {
        let signal: Signal<Int, Never>
        let send: @Sendable (Int) -> Void
        let complete: (@Sendable () -> Void)?
    }

    static func make(_ target: Target) -> System {
        switch target {
        case .publish:
            let subject = PublishSubject<Int, Never>()
            return System(signal: subject.signal, send: { subject.send($0) }, complete: { subject.sendCompleted() })
        case .replay:
            let subject = ReplaySubject<Int, Never>(bufferSize: 2)
            return System(signal: subject.signal, send: { subject.send($0) }, complete: { subject.sendCompleted() })
        case .property:
            let property = MutableProperty(-1)
            return System(signal: property.signal, send: { property.value = $0 }, complete: nil)
        case .share:
            let subject = PublishSubject<Int, Never>()
            return System(signal: subject.signal.share(), send: { subject.send($0) }, complete: { subject.sendCompleted() })
        case .merge:
            let left = PublishSubject<Int, Never>(), right = PublishSubject<Int, Never>()
            return System(
                signal: left.signal.merge(with: right.signal),
                send: { $0 % 2 == 0 ? left.send($0) : right.send($0) },
                complete: { left.sendCompleted(); right.sendCompleted() }
            )
        case .combineLatest:
            // Initial values no thread sends (threads send thread * 1,000,000 + 1…40).
            let left = BehaviorSubject<Int, Never>(500_000), right = BehaviorSubject<Int, Never>(500_001)
            return System(
                signal: left.signal.combineLatest(right.signal).map { $0 << 32 | $1 },
                send: { $0 % 2 == 0 ? left.send($0) : right.send($0) },
                complete: { left.sendCompleted(); right.sendCompleted() }
            )
        case .flatMapLatest:
            let inners = [PublishSubject<Int, Never>(), PublishSubject<Int, Never>()]
            let outer = BehaviorSubject<Int, Never>(0)
            return System(
                signal: outer.signal.flatMapLatest { inners[$0].signal },
                send: { value in
                    // Every 5th value switches the inner stream; the others go to one inner
                    // stream each (by parity), so no value can arrive twice legitimately.
                    if value % 5 == 0 { outer.send(value / 5 % 2) } else { inners[value % 2].send(value) }
                },
                complete: nil
            )
        }
    }

    /// Runs the three programs on three real threads at once, then checks what was seen.
    static func run(_ programs: [[Int]], target: Target) {
        let system = make(target)
        let clock = Clock()
        let subscriptions = Locked<[Subscription]>([])
        let sends = Locked<[Send]>([])
        let completion = Locked<(start: Int, end: Int)?>(nil)
        let start = DispatchSemaphore(value: 0)
        let workers = programs.enumerated().map { thread, program in
            Worker {
                start.wait()
                var slots: [Subscription?] = [nil, nil]
                var sequence = 0
                for op in program.map(Op.init) {
                    switch op {
                    case .subscribe(let slot):
                        guard slots[slot] == nil else { continue }
                        let subscription = Subscription(thread: thread)
                        subscription.subscribeStart = clock.tick()
                        subscription.disposable = system.signal.subscribe(Observer(
                            value: { value in subscription.events.withLock { $0.append((clock.tick(), .value(value))) } },
                            completion: { end in
                                let event: Event<Int, Never> = switch end {
                                case .completed: .completed
                                }
                                subscription.events.withLock { $0.append((clock.tick(), event)) }
                            }
                        ))
                        subscription.subscribeEnd = clock.tick()
                        slots[slot] = subscription
                        subscriptions.withLock { $0.append(subscription) }
                    case .dispose(let slot):
                        guard let subscription = slots[slot] else { continue }
                        subscription.disposeStart = clock.tick()
                        subscription.disposable?.dispose()
                        subscription.disposeEnd = clock.tick()
                        slots[slot] = nil
                    case .send:
                        sequence += 1
                        // Unique, and ordered per sender: thread * 1,000,000 + sequence.
                        let value = thread * 1_000_000 + sequence
                        let begun = clock.tick()
                        system.send(value)
                        let ended = clock.tick()
                        sends.withLock { $0.append(Send(value: value, start: begun, end: ended)) }
                    case .complete:
                        guard let complete = system.complete else { continue }
                        let begun = clock.tick()
                        complete()
                        let ended = clock.tick()
                        completion.withLock { if $0 == nil { $0 = (begun, ended) } }
                    }
                }
                for subscription in slots.compactMap({ $0 }) {
                    subscription.disposeStart = clock.tick()
                    subscription.disposable?.dispose()
                    subscription.disposeEnd = clock.tick()
                }
            }
        }
        for _ in workers { start.signal() }
        workers.forEach { $0.join() }
        check(target, subscriptions.value, sends.value, completion.value)
    }

    static func check(_ target: Target, _ subscriptions: [Subscription], _ sends: [Send], _ completion: (start: Int, end: Int)?) {
        let sent = Dictionary(uniqueKeysWithValues: sends.map { ($0.value, $0) })
        for (index, subscription) in subscriptions.enumerated() {
            let events = subscription.events.value
            let name = "subscription \(index) (thread \(subscription.thread), \(subscription.subscribeStart)…\(subscription.disposeEnd ?? -1))"
            // Grammar: values, then at most one terminal event, nothing after it.
            let terminals = events.indices.filter { events[$0].event.value == nil }
            #expect(terminals.count <= 1, "\(name): \(terminals.count) terminal events")
            if let terminal = terminals.first {
                #expect(terminal == events.count - 1, "\(name): an event after the terminal one")
            }
            // T-G1: nothing after dispose returned.
            if let disposeEnd = subscription.disposeEnd {
                let late = events.filter { $0.stamp > disposeEnd }
                #expect(late.isEmpty, "\(name): \(late.count) events after dispose() returned")
            }
            let values = events.compactMap { $0.event.value }
            let components = target == .combineLatest ? values.flatMap { [$0 >> 32, $0 & 0xFFFF_FFFF] } : values
            if target != .combineLatest {
                #expect(Set(values).count == values.count, "\(name): a value arrived twice")
            } else {
                #expect(Set(values).count == values.count, "\(name): a pair arrived twice: \(values.map { [$0 >> 32, $0 & 0xFFFF_FFFF] })")
            }
            // Each sender's values arrive in the order it sent them (per component for pairs).
            for thread in 0..<3 {
                let own = components.filter { $0 > 0 && $0 / 1_000_000 == thread && sent[$0] != nil }
                if target == .combineLatest {
                    let left = values.map { $0 >> 32 }.filter { $0 / 1_000_000 == thread && sent[$0] != nil }
                    let right = values.map { $0 & 0xFFFF_FFFF }.filter { $0 / 1_000_000 == thread && sent[$0] != nil }
                    #expect(left == left.sorted() && right == right.sorted(), "\(name): thread \(thread)'s values out of order")
                } else {
                    #expect(own == own.sorted(), "\(name): thread \(thread)'s values out of order: \(own)")
                }
            }
            // Values sent wholly before the subscription: only as many as a replay allows.
            let early = Set(components).compactMap { sent[$0] }.filter { $0.end < subscription.subscribeStart }
            #expect(early.count <= target.earlyAllowed, "\(name): \(early.count) values sent before it subscribed")
            // The window rule: a value sent wholly while the subscription was live arrives.
            if target.windowRule {
                let received = Set(values)
                let windowEnd = min(subscription.disposeStart ?? .max, completion?.start ?? .max)
                let missed = sends.filter {
                    $0.start > subscription.subscribeEnd && $0.end < windowEnd && !received.contains($0.value)
                }
                #expect(missed.isEmpty, "\(name): missed \(missed.count) values sent while it was live, e.g. \(missed.prefix(3).map(\.value))")
            }
            // Completion reaches every subscription live when it was sent.
            if let completion, subscription.subscribeEnd < completion.start,
               completion.end < (subscription.disposeStart ?? .max), target != .flatMapLatest {
                #expect(terminals.count == 1, "\(name): the completion did not arrive")
            }
        }
    }
}
