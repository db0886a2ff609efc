import PropertyBased
import Signals
import SignalsTesting
import Testing

/// Issue 15: operator laws, checked on random inputs (shrunk to the smallest failing case by
/// PropertyBased) against a plain reference: what the operator must do, written as a loop over
/// an array. The marble round trip has its own file (MarbleDiagramRoundTripTests).
@Suite struct OperatorLawTests {
    static let values = Gen.int(in: -50...50).array(of: 0...30)
    /// A small family of functions picked by number, so a failing case shrinks to a named one.
    static let coefficients = Gen.int(in: -5...5)

    /// Everything a cold stream of `values` delivers through `transform`, and how it ended.
    static func run<Output: Sendable>(_ values: [Int], _ transform: (Signal<Int, Never>) -> Signal<Output, Never>) -> (values: [Output], completed: Bool) {
        let recorder = Recorder<Output, Never>()
        recorder.subscribe(to: transform(Signal(sequence: values)))
        defer { recorder.dispose() }
        return (recorder.recordedValues, recorder.isCompleted)
    }

    /// map fusion: `map(f).map(g)` is `map { g(f($0)) }`, and both are the array's map.
    @Test(.shrinking) func mapFuses() async {
        await propertyCheck(count: 300, input: Self.values, Self.coefficients, Self.coefficients) { values, a, b in
            let f: @Sendable (Int) -> Int = { $0 * a + 1 }
            let g: @Sendable (Int) -> String = { "\($0 - b)" }
            let twice = Self.run(values) { $0.map(f).map(g) }
            let fused = Self.run(values) { $0.map { g(f($0)) } }
            #expect(twice.values == fused.values)
            #expect(twice.values == values.map(f).map(g))
            #expect(twice.completed && fused.completed)
        }
    }

    /// filter is compactMap with `nil` for the rejected, and both are the array's filter, in order.
    @Test(.shrinking) func filterIsCompactMap() async {
        await propertyCheck(count: 300, input: Self.values, Gen.int(in: 1...6)) { values, modulus in
            let keep: @Sendable (Int) -> Bool = { $0 % modulus == 0 }
            let filtered = Self.run(values) { $0.filter(keep) }
            let compact = Self.run(values) { $0.compactMap { keep($0) ? $0 : nil } }
            #expect(filtered.values == compact.values)
            #expect(filtered.values == values.filter(keep))
        }
    }

    /// scan emits every prefix's fold; reduce emits the whole fold once, at the end.
    @Test(.shrinking) func scanIsAFoldOfEachPrefix() async {
        await propertyCheck(count: 300, input: Self.values, Self.coefficients) { values, seed in
            let scanned = Self.run(values) { $0.scan(seed) { $0 * 2 - $1 } }
            var folds: [Int] = []
            var accumulator = seed
            for value in values {
                accumulator = accumulator * 2 - value
                folds.append(accumulator)
            }
            #expect(scanned.values == folds)
            let reduced = Self.run(values) { $0.reduce(seed) { $0 * 2 - $1 } }
            #expect(reduced.values == [values.reduce(seed) { $0 * 2 - $1 }])
            #expect(reduced.completed)
        }
    }

    /// One step of a two-input program: which input sends (its next value) or completes.
    enum Step: Equatable {
        case sendA, sendB, completeA, completeB

        init(_ code: Int) {
            switch code % 10 {
            case 0: self = .completeA
            case 1: self = .completeB
            case 2...5: self = .sendA
            default: self = .sendB
            }
        }
    }

    static let programs = Gen.int(in: 0...99).array(of: 0...40).map { $0.map(Step.init) }

    /// Drives two publish subjects through `program` and records what `combine` makes of them.
    static func drive<Output: Sendable>(
        _ program: [Step],
        _ combine: (Signal<Int, Never>, Signal<Int, Never>) -> Signal<Output, Never>
    ) -> (values: [Output], completed: Bool) {
        let a = PublishSubject<Int, Never>(), b = PublishSubject<Int, Never>()
        let recorder = Recorder<Output, Never>()
        recorder.subscribe(to: combine(a.signal, b.signal))
        defer { recorder.dispose() }
        var nextA = 0, nextB = 100
        for step in program {
            switch step {
            case .sendA: a.send(nextA); nextA += 1
            case .sendB: b.send(nextB); nextB += 1
            case .completeA: a.sendCompleted()
            case .completeB: b.sendCompleted()
            }
        }
        return (recorder.recordedValues, recorder.isCompleted)
    }

    /// merge keeps every value of both inputs, in the order they were sent, and completes when
    /// both have completed.
    @Test(.shrinking) func mergeKeepsEveryValueInOrder() async {
        await propertyCheck(count: 500, input: Self.programs) { program in
            let merged = Self.drive(program) { $0.merge(with: $1) }
            var expected: [Int] = []
            var nextA = 0, nextB = 100, doneA = false, doneB = false
            for step in program {
                switch step {
                case .sendA: if !doneA { expected.append(nextA) }; nextA += 1
                case .sendB: if !doneB { expected.append(nextB) }; nextB += 1
                case .completeA: doneA = true
                case .completeB: doneB = true
                }
            }
            #expect(merged.values == expected)
            #expect(merged.completed == (doneA && doneB))
        }
    }

    /// combineLatest against its reference: after both have sent, each value pairs with the
    /// other's latest; completes when both have completed, or at once when one completes having
    /// sent nothing (nothing could ever be emitted).
    @Test(.shrinking) func combineLatestMatchesTheReference() async {
        await propertyCheck(count: 500, input: Self.programs) { program in
            let combined = Self.drive(program) { $0.combineLatest($1) }.values.map { [$0.0, $0.1] }
            let ended = Self.drive(program) { $0.combineLatest($1) }.completed
            var expected: [[Int]] = []
            var latestA: Int?, latestB: Int?
            var nextA = 0, nextB = 100, doneA = false, doneB = false, finished = false
            for step in program where !finished {
                switch step {
                case .sendA:
                    if !doneA { latestA = nextA; if let latestB { expected.append([nextA, latestB]) } }
                    nextA += 1
                case .sendB:
                    if !doneB { latestB = nextB; if let latestA { expected.append([latestA, nextB]) } }
                    nextB += 1
                case .completeA:
                    doneA = true
                    if doneB || latestA == nil { finished = true }
                case .completeB:
                    doneB = true
                    if doneA || latestB == nil { finished = true }
                }
            }
            #expect(combined == expected)
            #expect(ended == finished)
        }
    }

    /// zip against its reference: the n-th values paired; completes once an input has
    /// completed and every value it sent has been paired.
    @Test(.shrinking) func zipMatchesTheReference() async {
        await propertyCheck(count: 500, input: Self.programs) { program in
            let run = Self.drive(program) { $0.zip($1) }
            var queueA: [Int] = [], queueB: [Int] = []
            var expected: [[Int]] = []
            var nextA = 0, nextB = 100, doneA = false, doneB = false, finished = false
            func pair() {
                while !queueA.isEmpty && !queueB.isEmpty { expected.append([queueA.removeFirst(), queueB.removeFirst()]) }
                if (doneA && queueA.isEmpty) || (doneB && queueB.isEmpty) { finished = true }
            }
            for step in program where !finished {
                switch step {
                case .sendA: if !doneA { queueA.append(nextA) }; nextA += 1
                case .sendB: if !doneB { queueB.append(nextB) }; nextB += 1
                case .completeA: doneA = true
                case .completeB: doneB = true
                }
                pair()
            }
            #expect(run.values.map { [$0.0, $0.1] } == expected)
            #expect(run.completed == finished)
        }
    }

    /// grouped(by:) partitions the values by key, each group in order, groups in order of their
    /// first value; every group completes with the source.
    @Test(.shrinking) func groupedPartitionsByKey() async {
        await propertyCheck(count: 300, input: Self.values, Gen.int(in: 1...5)) { values, modulus in
            let groups = Locked<[(key: Int, values: Locked<[Int]>, completed: Locked<Bool>)]>([])
            let outer = Signal<Int, Never>(sequence: values).grouped { (($0 % modulus) + modulus) % modulus }.sink(value: { group in
                let entry = (key: group.key, values: Locked<[Int]>([]), completed: Locked(false))
                groups.withLock { $0.append(entry) }
                _ = group.signal.sink(value: { value in entry.values.withLock { $0.append(value) } },
                                      completion: { _ in entry.completed.withLock { $0 = true } })
            })
            defer { outer.dispose() }
            var expectedKeys: [Int] = []
            var expected: [Int: [Int]] = [:]
            for value in values {
                let key = ((value % modulus) + modulus) % modulus
                if expected[key] == nil { expectedKeys.append(key) }
                expected[key, default: []].append(value)
            }
            let seen = groups.withLock { $0 }
            #expect(seen.map(\.key) == expectedKeys)
            for group in seen {
                #expect(group.values.value == expected[group.key])
                #expect(group.completed.value)
            }
        }
    }

    /// A failure reaches every group, then the result.
    @Test func groupedForwardsAFailureToEveryGroup() {
        let source = PublishSubject<String, TestError>()
        let failures = Locked<[String]>([])
        let outer = source.signal.grouped { $0.count }.sink(
            value: { group in
                _ = group.signal.sink(completion: { completion in
                    if case .failed = completion { failures.withLock { $0.append("group \(group.key)") } }
                })
            },
            completion: { completion in
                if case .failed = completion { failures.withLock { $0.append("outer") } }
            }
        )
        defer { outer.dispose() }
        source.send("a")
        source.send("bb")
        source.send("c")
        source.sendFailed(TestError())
        #expect(failures.value.sorted() == ["group 1", "group 2", "outer"])
        #expect(failures.value.last == "outer", "the groups first, then the result")
    }
}
