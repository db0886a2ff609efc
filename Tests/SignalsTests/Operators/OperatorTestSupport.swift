import PropertyBased
import Signals
import SignalsTesting
import Testing

// What the operators' tests share: the case type of the contract every operator keeps (each
// operator's cases are in its own tests file, `<Group>/<Op>Tests.swift`, and
// `OperatorContractTests` runs them all), and the inputs and drivers of the operator laws
// (OperatorLawTests and the laws in the operators' own files).

/// One operator under the contract every operator must keep (T-OP1, T-OP2, T-OP6, T-OP8,
/// T-CORE7 for observe/subscribe(on:)): values, completion, failure, disposal, leaks,
/// re-entrant sends and self-disposal.
struct OperatorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let applyOn: @Sendable (Signal<String, TestError>, TestScheduler) -> Signal<String, TestError>
    /// A completing input and the expected output.
    let completing: (input: String, output: String)
    /// A failing input and the expected output.
    let failing: (input: String, output: String)
    /// Whether the operator's output does not depend on time, so that a re-entrant run can be
    /// compared with a synchronous one.
    let isTimeless: Bool

    var testDescription: String { name }

    init(name: String, apply: @escaping @Sendable (Signal<String, TestError>) -> Signal<String, TestError>,
         completing: (input: String, output: String), failing: (input: String, output: String)) {
        self.name = name
        self.applyOn = { signal, _ in apply(signal) }
        self.completing = completing
        self.failing = failing
        self.isTimeless = true
    }

    init(name: String, timed apply: @escaping @Sendable (Signal<String, TestError>, TestScheduler) -> Signal<String, TestError>,
         completing: (input: String, output: String), failing: (input: String, output: String)) {
        self.name = name
        self.applyOn = apply
        self.completing = completing
        self.failing = failing
        self.isTimeless = false
    }

    /// For the checks that run without a test scheduler.
    var apply: @Sendable (Signal<String, TestError>) -> Signal<String, TestError> {
        let applyOn = self.applyOn
        return { applyOn($0, TestScheduler()) }
    }
}

/// The random inputs of the operator laws.
enum OperatorLawInputs {
    static let values = Gen.int(in: -50...50).array(of: 0...30)
    /// A small family of functions picked by number, so a failing case shrinks to a named one.
    static let coefficients = Gen.int(in: -5...5)
    static let programs = Gen.int(in: 0...99).array(of: 0...40).map { $0.map(OperatorLawStep.init) }
}

/// One step of a two-input program: which input sends (its next value) or completes.
enum OperatorLawStep: Equatable {
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

/// The drivers of the operator laws, for the suites that check them (`Self.run`, `Self.drive`).
protocol OperatorLawChecks {}

extension OperatorLawChecks {
    typealias Step = OperatorLawStep

    /// Everything a cold stream of `values` delivers through `transform`, and how it ended.
    static func run<Output: Sendable>(_ values: [Int], _ transform: (Signal<Int, Never>) -> Signal<Output, Never>) -> (values: [Output], completed: Bool) {
        let recorder = Recorder<Output, Never>()
        recorder.subscribe(to: transform(Signal(sequence: values)))
        defer { recorder.dispose() }
        return (recorder.recordedValues, recorder.isCompleted)
    }

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
}
