import MVVM
import Signals
import SignalsTesting
import Synchronization

/// Runners for the diagrams of the combining, higher-order, time and sharing operators.
extension DocRunners {
    /// Runs `make(scheduler, diagram)` and prints the result.
    static func run<Value>(_ label: String, format: @escaping @Sendable (Value) -> String = { "\($0)" },
                           _ make: @escaping @Sendable (TestScheduler, DocDiagram) -> Signal<Value, TestError>) -> Runner {
        { diagram in
            let scheduler = TestScheduler()
            let signal = make(scheduler, diagram)
            return [label: scheduler.marbles(of: signal, format: format)]
        }
    }

    @Sendable static func pair(_ pair: (String, String)) -> String { pair.0 + pair.1 }

    static let combining: [String: Runner] = [
        "CombineLatest.swift#combineLatest": run("combineLatest", format: pair) { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.combineLatest(scheduler.cold(diagram.input("other")).signal)
        },
        "CombineLatest.swift#combineLatest(+)": run("combineLatest(+)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.combineLatest(scheduler.cold(diagram.input("other")).signal, +)
        },
        "CombineLatest.swift#combineLatest([a, b])": run("combineLatest([a, b])", format: { (array: [String]) in array.joined() }) { scheduler, diagram in
            Signal.combineLatest([scheduler.cold(diagram.input("a")).signal, scheduler.cold(diagram.input("b")).signal])
        },
        "CombineLatest.swift#combineLatest([a, b], +)": run("combineLatest([a, b], +)") { scheduler, diagram in
            Signal.combineLatest([scheduler.cold(diagram.input("a")).signal, scheduler.cold(diagram.input("b")).signal]) { $0.joined() }
        },
        "ObserveOn.swift#subscribe(on)": run("subscribe(on)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.subscribe(on: scheduler)
        },
        "Concat.swift#append": run("append") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.append("x", "y")
        },
        "WithLatestFrom.swift#withLatestFrom(other)": run("withLatestFrom(other)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.withLatestFrom(scheduler.cold(diagram.input("other")).signal)
        },
        "MapError.swift#setFailureType": { diagram in
            let scheduler = TestScheduler()
            let never: Signal<String, Never> = scheduler.cold(diagram.input(), values: ["a": "a"], error: TestError()).signal.replaceErrorWithCompletion()
            return ["setFailureType": scheduler.marbles(of: never.setFailureType(to: TestError.self))]
        },
        "Zip.swift#zip": run("zip", format: pair) { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.zip(scheduler.cold(diagram.input("other")).signal)
        },
        "Zip.swift#zip([a, b])": run("zip([a, b])", format: { (array: [String]) in array.joined() }) { scheduler, diagram in
            Signal.zip([scheduler.cold(diagram.input("a")).signal, scheduler.cold(diagram.input("b")).signal])
        },
        "Merge.swift#merge(with)": run("merge(with)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.merge(with: scheduler.cold(diagram.input("other")).signal)
        },
        "Merge.swift#merge([a, b])": run("merge([a, b])") { scheduler, diagram in
            Signal.merge([scheduler.cold(diagram.input("a")).signal, scheduler.cold(diagram.input("b")).signal])
        },
        "WithLatestFrom.swift#withLatestFrom": run("withLatestFrom") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.withLatestFrom(scheduler.cold(diagram.input("other")).signal, +)
        },
        "Sample.swift#sample": run("sample") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.sample(scheduler.cold(diagram.input("trigger")).signal)
        },
        "Concat.swift#concat": run("concat") { scheduler, diagram in
            Signal.concat([scheduler.cold(diagram.input("a")).signal, scheduler.cold(diagram.input("b")).signal])
        },
        "Concat.swift#prepend": run("prepend") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.prepend("x", "y")
        },
        "Race.swift#race": run("race") { scheduler, diagram in
            Signal.race([scheduler.cold(diagram.input("a")).signal, scheduler.cold(diagram.input("b")).signal])
        },
        "SwitchToLatest.swift#switchToLatest": run("switchToLatest") { scheduler, diagram in
            let inners = ["x": scheduler.cold(diagram.input("x")).signal, "y": scheduler.cold(diagram.input("y")).signal]
            return scheduler.cold(diagram.input(), values: inners).signal.switchToLatest()
        },
        "SwitchToLatest.swift#flatMapLatest": run("flatMapLatest") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.flatMapLatest { value in
                scheduler.cold("-\(value.uppercased())-|").signal
            }
        },
        "FlatMap.swift#flatMap": run("flatMap") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.flatMap { value in
                scheduler.cold("-\(value.uppercased())-\(value)|").signal
            }
        },
        "FlatMap.swift#concatMap": run("concatMap") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.concatMap { value in
                scheduler.cold("-\(value.uppercased())-\(value)|").signal
            }
        },
    ]

    static let timeAndSharing: [String: Runner] = [
        "DelaySubscription.swift#delaySubscription": run("delaySubscription") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.delaySubscription(for: .seconds(2), on: scheduler)
        },
        "Delay.swift#delay": run("delay") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.delay(for: .seconds(2), on: scheduler)
        },
        "Debounce.swift#debounce": run("debounce") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.debounce(for: .seconds(3), on: scheduler)
        },
        "Throttle.swift#throttle": run("throttle") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.throttle(for: .seconds(3), on: scheduler)
        },
        "Timeout.swift#timeout(failure)": run("timeout(failure)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.timeout(for: .seconds(3), on: scheduler) { TestError("timed out") }
        },
        "Timeout.swift#timeout(fallback)": run("timeout(fallback)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.timeout(for: .seconds(3), on: scheduler, fallback: scheduler.cold("x-y|").signal)
        },
        "Timer.swift#interval": { diagram in
            let scheduler = TestScheduler()
            let ticks = diagram.input("interval").count
            return ["interval": scheduler.marbles(of: Signal.interval(.seconds(2), on: scheduler), until: ticks)]
        },
        "Timer.swift#timer": { _ in
            let scheduler = TestScheduler()
            return ["timer": scheduler.marbles(of: Signal.timer(after: .seconds(3), on: scheduler))]
        },
        "Buffer.swift#buffer(count)": run("buffer(count)", format: { (array: [String]) in array.joined() }) { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.buffer(count: 2)
        },
        "Buffer.swift#buffer(timeSpan)": run("buffer(timeSpan)", format: { (array: [String]) in array.joined() }) { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.buffer(timeSpan: .seconds(3), maxCount: 2, on: scheduler)
        },
        "ViewModelLifecycle.swift#whileActive": { diagram in
            let (scheduler, lifecycle) = lifecycle(following: diagram)
            let source = scheduler.hot(diagram.input())
            return ["whileActive": scheduler.marbles(of: source.signal.forward(whileActive: lifecycle))]
        },
        "ViewModelLifecycle.swift#untilInactive": { diagram in
            let (scheduler, lifecycle) = lifecycle(following: diagram)
            let source = scheduler.cold(diagram.input())
            return ["untilInactive": scheduler.marbles(of: source.signal.take(untilInactive: lifecycle))]
        },
        "GroupBy.swift#u": { diagram in
            // One scheduler per line: each line subscribes to the cold source at time zero.
            func line(_ make: @escaping @Sendable (Signal<GroupedSignal<String, String, TestError>, TestError>) -> Signal<String, TestError>) -> String {
                let scheduler = TestScheduler()
                let grouped = scheduler.cold(diagram.input()).signal.grouped { $0.first!.isUppercase ? "u" : "l" }
                return scheduler.marbles(of: make(grouped))
            }
            return [
                "groups": line { $0.map(\.key) },
                "l": line { $0.flatMap { $0.key == "l" ? $0.signal : .empty } },
                "u": line { $0.flatMap { $0.key == "u" ? $0.signal : .empty } },
            ]
        },
        "Share.swift#second": { diagram in
            let scheduler = TestScheduler()
            let shared = scheduler.cold(diagram.input()).signal.share(replay: 1)
            let first = scheduler.record(shared)
            let second = scheduler.record(shared, subscribeAt: 3)
            scheduler.run()
            return [
                "first": scheduler.diagram(of: first),
                "second": scheduler.diagram(of: second, showSubscription: true),
            ]
        },
    ]

    /// The operators RxSwift users expect (issue 15).
    static let fromRxSwift: [String: Runner] = [
        "ElementAt.swift#element(at)": unary("element(at)") { $0.element(at: 1) },
        "IfEmpty.swift#ifEmpty(default)": unary("ifEmpty(default)") { $0.ifEmpty(default: "x") },
        "IfEmpty.swift#ifEmpty(switchTo)": run("ifEmpty(switchTo)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.ifEmpty(switchTo: scheduler.cold(diagram.input("other")).signal)
        },
        "TakeFor.swift#take(for)": run("take(for)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal.take(for: .seconds(4), on: scheduler)
        },
        "Window.swift#window(timeSpan)": run("window(timeSpan)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal
                .window(timeSpan: .seconds(4), count: 2, on: scheduler)
                .flatMap { $0.collect().map { $0.joined() } }
        },
        "RetryWhen.swift#retry(when)": run("retry(when)") { scheduler, diagram in
            scheduler.cold(diagram.input()).signal
                .retry(when: { $0.delay(for: .seconds(2), on: scheduler).prefix(2) })
                .setFailureType(to: TestError.self)
        },
    ]
}

/// A lifecycle that follows the diagram's `active` line (`T` activates, `F` deactivates, at
/// their ticks), on a new scheduler.
@Sendable func lifecycle(following diagram: DocDiagram) -> (TestScheduler, ViewModelLifecycle) {
    let scheduler = TestScheduler()
    let lifecycle = ViewModelLifecycle()
    let marks = try! MarbleDiagram(parsing: diagram.input("active"))
    for (tick, tickMarks) in marks.ticks {
        for case .value(let flag) in tickMarks {
            scheduler.schedule(atTick: tick) { flag == "T" ? lifecycle.activate() : lifecycle.deactivate() }
        }
    }
    return (scheduler, lifecycle)
}
