import Foundation
import MVVM
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-BEYOND2: every marble diagram in a doc comment of `Signals` and `MVVM` is run as a test.
///
/// The test reads the sources, extracts each ```` ```text ```` block of `label: diagram` lines
/// and looks up a runner by file and last label. The runner builds the inputs from the block's
/// input lines, applies the operator as its doc describes, and returns the actual output line
/// or lines, which must equal the documented ones. A diagram without a runner fails, and so
/// does a runner whose diagram has gone from the docs.
@Suite struct DocDiagramTests {
    @Test func everyDocumentedDiagramRunsAsWritten() throws {
        let diagrams = try DocDiagram.all()
        #expect(diagrams.count >= 38, "found only \(diagrams.count) diagrams; is the source path right?")
        var used = Set<String>()
        for diagram in diagrams {
            guard let runner = DocRunners.all[diagram.key] else {
                Issue.record("no runner for the diagram \(diagram.key) in \(diagram.file):\n\(diagram.text)")
                continue
            }
            used.insert(diagram.key)
            let actual = runner(diagram)
            #expect(!actual.isEmpty, "runner \(diagram.key) produced nothing")
            for (label, output) in actual {
                let documented = diagram.line(label)
                #expect(output == documented, "\(diagram.file): '\(label)' is documented as \(documented ?? "nil") but runs as \(output)")
            }
        }
        let stale = Set(DocRunners.all.keys).subtracting(used)
        #expect(stale.isEmpty, "runners whose diagrams are gone from the docs: \(stale.sorted())")
    }
}

/// A `text` block of a doc comment: `label: diagram` lines.
struct DocDiagram {
    let file: String
    let lines: [(label: String, diagram: String)]
    let text: String

    /// File name and the last line's label: `Map.swift#map`.
    var key: String { "\(file)#\(lines.last?.label ?? "")" }

    func line(_ label: String) -> String? {
        lines.first { $0.label == label }?.diagram
    }

    func input(_ label: String = "self") -> String {
        guard let diagram = line(label) else { preconditionFailure("\(key): no '\(label)' line") }
        return diagram
    }

    static func all() throws -> [DocDiagram] {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var result: [DocDiagram] = []
        for module in ["Signals", "MVVM"] {
            let root = sources.appendingPathComponent(module)
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                let source = try String(contentsOf: url, encoding: .utf8)
                result += parse(source, file: url.lastPathComponent)
            }
        }
        return result
    }

    static func parse(_ source: String, file: String) -> [DocDiagram] {
        var result: [DocDiagram] = []
        var current: [String]?
        for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("///") else { current = nil; continue }
            let body = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            if body == "```text" { current = []; continue }
            if body == "```", let block = current {
                let lines = block.compactMap { entry -> (String, String)? in
                    guard let colon = entry.firstIndex(of: ":") else { return nil }
                    var diagram = entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    // Drop a trailing "(comment)" separated by two or more spaces.
                    if let range = diagram.range(of: #"\s{2,}\(.*\)$"#, options: .regularExpression) {
                        diagram = String(diagram[..<range.lowerBound])
                    }
                    return (String(entry[..<colon]).trimmingCharacters(in: .whitespaces), diagram)
                }
                result.append(DocDiagram(file: file, lines: lines, text: block.joined(separator: "\n")))
                current = nil
                continue
            }
            current?.append(body)
        }
        return result
    }
}

/// How each documented diagram is run.
enum DocRunners {
    typealias Runner = @Sendable (DocDiagram) -> [String: String]

    /// Applies `apply` to the cold source of the `self` line; the output line is the last one.
    static func unary(
        _ label: String,
        _ apply: @escaping @Sendable (Signal<String, TestError>) -> Signal<String, TestError>
    ) -> Runner {
        { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return [label: scheduler.marbles(of: apply(source.signal))]
        }
    }

    /// Like `unary`, for operators over integers.
    /// A runner for an operator with a second input, read from the diagram's `trigger:` line.
    static func withTrigger(
        _ label: String,
        _ apply: @escaping @Sendable (Signal<String, TestError>, Signal<String, TestError>) -> Signal<String, TestError>
    ) -> Runner {
        { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            let trigger = scheduler.cold(diagram.input("trigger"))
            return [label: scheduler.marbles(of: apply(source.signal, trigger.signal))]
        }
    }

    static func integers(
        _ label: String,
        _ apply: @escaping @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>
    ) -> Runner {
        { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input(), values: digitValues)
            return [label: scheduler.marbles(of: apply(source.signal))]
        }
    }

    static let digitValues: [String: Int] = Dictionary(uniqueKeysWithValues: (0...9).map { (String($0), $0) })

    static let all: [String: Runner] = core.merging(combining) { first, _ in first }.merging(timeAndSharing) { first, _ in first }
        .merging(fromRxSwift) { first, _ in first }

    static let core: [String: Runner] = [
        // Creation
        "Signal+Creation.swift#just(a)": { _ in ["just(a)": TestScheduler().marbles(of: Signal<String, Never>.just("a"))] },
        "Signal+Creation.swift#empty": { _ in ["empty": TestScheduler().marbles(of: Signal<String, Never>.empty)] },
        "Signal+Creation.swift#never": { diagram in
            ["never": TestScheduler().marbles(of: Signal<String, Never>.never, until: diagram.input("never").count)]
        },
        "Signal+Creation.swift#fail(e)": { _ in ["fail(e)": TestScheduler().marbles(of: Signal<String, TestError>.fail(TestError()))] },
        "Signal+Creation.swift#[a, b, c]": { _ in ["[a, b, c]": TestScheduler().marbles(of: ["a", "b", "c"].signal)] },

        // Transform
        "Map.swift#map": unary("map") { $0.map { $0.uppercased() } },
        "CompactMap.swift#compactMap": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["compactMap": scheduler.marbles(of: source.signal.compactMap { Int($0) })]
        },
        "Scan.swift#scan": integers("scan") { $0.scan(0, +) },
        "Reduce.swift#reduce": integers("reduce") { $0.reduce(0, +) },
        "Collect.swift#collect": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["collect": scheduler.marbles(of: source.signal.collect()) { $0.joined() }]
        },
        "Materialize.swift#materialize": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["materialize": scheduler.marbles(of: source.signal.materialize(), format: eventText)]
        },
        "Materialize.swift#dematerialize": { diagram in
            // The input's `(#)` and `(|)` are *values* (events as values), then the stream of
            // events completes.
            let scheduler = TestScheduler()
            let marks = try! MarbleDiagram(parsing: diagram.input())
            let subject = PublishSubject<Event<String, TestError>, Never>()
            var valueMarks = marks.ticks.flatMap { tick, marks in marks.map { (tick, $0) } }
            // The last mark of the input is the stream's own completion.
            let last = valueMarks.removeLast()
            for (tick, mark) in valueMarks {
                let event: Event<String, TestError>
                switch mark {
                case .value("#"): event = .failed(TestError())
                case .value("|"): event = .completed
                case .value(let text): event = .value(text)
                default: continue
                }
                scheduler.schedule(atTick: tick) { subject.send(event) }
            }
            scheduler.schedule(atTick: last.0) { subject.sendCompleted() }
            let output: Signal<String, TestError> = subject.signal.dematerialize()
            return ["dematerialize": scheduler.marbles(of: output)]
        },

        // Filter
        "Filter.swift#filter": integers("filter") { $0.filter { $0.isMultiple(of: 2) } },
        "RemoveDuplicates.swift#removeDuplicates": unary("removeDuplicates") { $0.removeDuplicates() },
        "Prefix.swift#prefix": unary("prefix") { $0.prefix(2) },
        "Prefix.swift#prefix(while)": integers("prefix(while)") { $0.prefix { $0 < 3 } },
        "DropFirst.swift#dropFirst": unary("dropFirst") { $0.dropFirst(2) },
        "DropFirst.swift#drop(while)": integers("drop(while)") { $0.drop { $0 < 3 } },
        "First.swift#first": unary("first") { $0.first() },
        "First.swift#first(where)": integers("first(where)") { $0.first { $0 > 3 } },
        "Last.swift#last": unary("last") { $0.last() },
        "IgnoreValues.swift#ignoreValues": unary("ignoreValues") { $0.ignoreValues(as: String.self) },
        "PrefixUntilOutput.swift#prefix": withTrigger("prefix") { $0.prefix(untilOutputFrom: $1) },
        "PrefixUntilOutput.swift#drop": withTrigger("drop") { $0.drop(untilOutputFrom: $1) },
        "PrefixUntilOutput.swift#prefix(failing)": withTrigger("prefix(failing)") { $0.prefix(untilOutputFrom: $1) },
        "PrefixUntilOutput.swift#drop(failing)": withTrigger("drop(failing)") { $0.drop(untilOutputFrom: $1) },
        "TakeDuring.swift#take(during)": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            let token = Locked<Lifetime.Token?>(Lifetime.Token())
            let lifetime = token.withLock { $0!.lifetime }
            scheduler.schedule(atTick: 5) { token.withLock { $0 = nil } }
            return ["take(during)": scheduler.marbles(of: source.signal.take(during: lifetime))]
        },

        // Errors
        "Catch.swift#catch": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            let fallback = scheduler.cold("x-y-|")
            return ["catch": scheduler.marbles(of: source.signal.catch { _ in fallback.signal })]
        },
        "ReplaceError.swift#replaceError": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["replaceError": scheduler.marbles(of: source.signal.replaceError(with: "x"))]
        },
        "ReplaceError.swift#replaceErrorWithCompletion": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["replaceErrorWithCompletion": scheduler.marbles(of: source.signal.replaceErrorWithCompletion())]
        },
        "MapError.swift#mapError": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["mapError": scheduler.marbles(of: source.signal.mapError { _ in TestError("mapped") })]
        },
        "Retry.swift#retry(upTo)": unary("retry(upTo)") { $0.retry(upTo: 2) },

        // Debugging
        "HandleEvents.swift#handleEvents": unary("handleEvents") { $0.handleEvents(onValue: { _ in }) },
        "LogEvents.swift#logEvents": unary("logEvents") { $0.logEvents("doc", to: { _ in }) },

        // Scheduling
        "ObserveOn.swift#observe(on)": { diagram in
            let scheduler = TestScheduler()
            let source = scheduler.cold(diagram.input())
            return ["observe(on)": scheduler.marbles(of: source.signal.observe(on: scheduler))]
        },

        // Subjects and properties
        "PublishSubject.swift#subscriber": { diagram in
            let scheduler = TestScheduler()
            let subject = PublishSubject<String, TestError>()
            play(diagram.input("send"), into: subject.observer, on: scheduler)
            let recorder = scheduler.record(subject.signal, subscribeAt: 0)
            scheduler.run()
            return ["subscriber": scheduler.diagram(of: recorder, showSubscription: true)]
        },
        "ReplaySubject.swift#subscriber": { diagram in
            let scheduler = TestScheduler()
            let subject = ReplaySubject<String, TestError>(bufferSize: 2)
            play(diagram.input("send"), into: subject.observer, on: scheduler)
            let recorder = scheduler.record(subject.signal, subscribeAt: 6)
            scheduler.run()
            return ["subscriber": scheduler.diagram(of: recorder, showSubscription: true)]
        },
        "BehaviorSubject.swift#late": { diagram in
            let scheduler = TestScheduler()
            let subject = BehaviorSubject<String, TestError>("a")
            play(diagram.input("send"), into: subject.observer, on: scheduler)
            let early = scheduler.record(subject.signal)
            let late = scheduler.record(subject.signal, subscribeAt: 3)
            scheduler.run()
            return [
                "subscriber": scheduler.diagram(of: early),
                "late": scheduler.diagram(of: late, showSubscription: true),
            ]
        },
        "MutableProperty.swift#changes": { diagram in
            let scheduler = TestScheduler()
            let property = MutableProperty("a")
            play(diagram.input("set"), into: property.observer, on: scheduler)
            let signal = scheduler.record(property.signal)
            let changes = scheduler.record(property.changes)
            scheduler.run()
            return ["signal": scheduler.diagram(of: signal), "changes": scheduler.diagram(of: changes)]
        },
    ]

    /// Schedules the events of `diagram` into `observer`, at absolute ticks.
    static func play<Failure: Error>(_ diagram: String, into observer: Observer<String, Failure>, on scheduler: TestScheduler, error: Failure) {
        let marks = try! MarbleDiagram(parsing: diagram)
        for (tick, tickMarks) in marks.ticks {
            for mark in tickMarks {
                scheduler.schedule(atTick: tick) {
                    switch mark {
                    case .value(let text): observer.send(text)
                    case .completed: observer.sendCompleted()
                    case .failed: observer.sendFailed(error)
                    default: break
                    }
                }
            }
        }
    }

    static func play(_ diagram: String, into observer: Observer<String, TestError>, on scheduler: TestScheduler) {
        play(diagram, into: observer, on: scheduler, error: TestError())
    }

    static func play(_ diagram: String, into observer: Observer<String, Never>, on scheduler: TestScheduler) {
        let marks = try! MarbleDiagram(parsing: diagram)
        for (tick, tickMarks) in marks.ticks {
            for case .value(let text) in tickMarks {
                scheduler.schedule(atTick: tick) { observer.send(text) }
            }
        }
    }

    @Sendable static func eventText(_ event: Event<String, TestError>) -> String {
        switch event {
        case .value(let value): return value
        case .completed: return "|"
        case .failed: return "#"
        }
    }
}
