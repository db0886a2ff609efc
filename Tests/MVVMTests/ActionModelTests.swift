import Dispatch
import MVVM
import PropertyBased
import Signals
import SignalsTesting
import Testing

/// Issue 28: `Action` against a reference model. Random programs of applies, gate flips,
/// answers, failures, cancellations and stale answers (from an execution that already ended)
/// run step by step; after each step the action must read exactly what the model says
/// (`isEnabled` is `enabledIf && !running`, `isExecuting` is `running`), `apply` must start
/// exactly when the action read enabled, and every stream must have delivered what the model
/// expects, each change once. A second property runs programs on three threads at once and
/// checks what must hold whatever the interleaving.
@Suite struct ActionModelTests {
    /// One execution's work, answered by the program.
    final class Work: Sendable {
        let input: Int
        let observer: Observer<Int, TestError>
        let disposed = Locked(false)
        init(input: Int, observer: Observer<Int, TestError>) {
            self.input = input
            self.observer = observer
        }
    }

    enum Op {
        case apply, flipGate, answer, fail, cancel, staleAnswer, endWithoutValue

        init(_ code: Int) {
            switch code % 9 {
            case 0, 1, 2: self = .apply
            case 3: self = .flipGate
            case 4: self = .answer
            case 5: self = .fail
            case 6: self = .cancel
            case 7: self = .staleAnswer
            default: self = .endWithoutValue
            }
        }
    }

    /// The reference: what the action must be after each step.
    struct Reference {
        var gate = true
        var running = false
        var outputs: [Int] = []
        var errors: [String] = []
        var executing: [Bool] = [false]
        var enabled: [Bool] = [true]

        var isEnabled: Bool { gate && !running }

        mutating func note() {
            if executing.last != running { executing.append(running) }
            if enabled.last != isEnabled { enabled.append(isEnabled) }
        }
    }

    @Test func randomProgramsMatchTheReference() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...899).array(of: 1...60)) { program in
            let gate = MutableProperty(true)
            let works = Locked<[Work]>([])
            let action = Action<Int, Int, TestError>(enabledIf: gate.readOnly) { input in
                Signal { observer in
                    let work = Work(input: input, observer: observer)
                    works.withLock { $0.append(work) }
                    return AnyDisposable { work.disposed.withLock { $0 = true } }
                }
            }
            let executing = Recorder<Bool, Never>()
            executing.subscribe(to: action.isExecuting.signal)
            let enabled = Recorder<Bool, Never>()
            enabled.subscribe(to: action.isEnabled.signal)
            let outputs = Recorder<Int, Never>()
            outputs.subscribe(to: action.outputs)
            let errors = Recorder<TestError, Never>()
            errors.subscribe(to: action.errors)
            var model = Reference()
            var current: (work: Work?, subscription: any Disposable)?
            var ended: [Work] = []
            var input = 0

            for (step, code) in program.enumerated() {
                let op = Op(code)
                switch op {
                case .apply:
                    input += 1
                    let readEnabled = action.isEnabled.value
                    let result = Recorder<Int, ActionError<TestError>>()
                    result.subscribe(to: action.apply(input))
                    let refused = result.elements == [.failed(.disabled)]
                    #expect(readEnabled == !refused, "step \(step): read enabled \(readEnabled), apply \(refused ? "refused" : "started")")
                    #expect(refused == !model.isEnabled, "step \(step): the model says \(model.isEnabled ? "start" : "refuse")")
                    if !refused {
                        model.running = true
                        current = (works.value.last, AnyDisposable { result.dispose() })
                        #expect(works.value.last?.input == input, "the work ran with its input")
                    }
                case .flipGate:
                    model.gate.toggle()
                    gate.value = model.gate
                case .answer, .fail, .endWithoutValue:
                    guard let running = current, let work = running.work else { break }
                    current = nil
                    ended.append(work)
                    model.running = false
                    switch op {
                    case .answer:
                        model.outputs.append(work.input)
                        work.observer.send(work.input)
                        work.observer.sendCompleted()
                    case .fail:
                        model.errors.append("e\(work.input)")
                        work.observer.sendFailed(TestError("e\(work.input)"))
                    default:
                        work.observer.sendCompleted()
                    }
                case .cancel:
                    guard let running = current, let work = running.work else { break }
                    current = nil
                    running.subscription.dispose()
                    #expect(work.disposed.value, "step \(step): cancelling disposes the work")
                    ended.append(work)
                    model.running = false
                case .staleAnswer:
                    // An execution that ended answers again: nothing may change.
                    guard let old = ended.last else { break }
                    old.observer.send(-1)
                    old.observer.sendFailed(TestError("stale"))
                }
                model.note()
                #expect(action.isExecuting.value == model.running, "step \(step) \(op)")
                #expect(action.isEnabled.value == model.isEnabled, "step \(step) \(op)")
                #expect(executing.recordedValues == model.executing, "step \(step) \(op): isExecuting delivered each change once")
                #expect(enabled.recordedValues == model.enabled, "step \(step) \(op): isEnabled delivered each change once")
                #expect(outputs.recordedValues == model.outputs)
                #expect(errors.recordedValues.map(\.message) == model.errors)
            }
            current?.subscription.dispose()
        }
    }

    /// Three threads apply, flip the gate and cancel at once, while works answer on other
    /// threads. Whatever the interleaving: at most one execution runs at a time; every start
    /// ends in an output, an error or a cancellation; the action ends idle and enabled exactly
    /// when its gate is open; and each stream delivered changes only (never the same value
    /// twice in a row), ending on the value the action reads.
    @Test func concurrentProgramsKeepTheInvariants() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...99).array(of: 5...40), Gen.int(in: 0...99).array(of: 5...40), Gen.int(in: 0...99).array(of: 5...40)) { a, b, c in
            let gate = MutableProperty(true)
            let concurrent = Locked((now: 0, most: 0, starts: 0, ends: 0))
            let pending = DispatchGroup()
            let action = Action<Int, Int, TestError>(enabledIf: gate.readOnly) { input in
                Signal { observer in
                    concurrent.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                        $0.starts += 1
                    }
                    let over = Locked(false)
                    let end: @Sendable () -> Bool = {
                        guard over.withLock({ let first = !$0; $0 = true; return first }) else { return false }
                        concurrent.withLock { $0.now -= 1; $0.ends += 1 }
                        return true
                    }
                    pending.enter()
                    DispatchQueue.global().async {
                        if end() {
                            if input % 3 == 0 { observer.sendFailed(TestError("e")) } else {
                                observer.send(input)
                                observer.sendCompleted()
                            }
                        }
                        pending.leave()
                    }
                    return AnyDisposable { _ = end() }
                }
            }
            let executing = Recorder<Bool, Never>()
            executing.subscribe(to: action.isExecuting.signal)
            let enabled = Recorder<Bool, Never>()
            enabled.subscribe(to: action.isEnabled.signal)
            let outcomes = Locked((outputs: 0, errors: 0))
            let bag = DisposeBag()
            action.outputs.sink { _ in outcomes.withLock { $0.outputs += 1 } }.disposed(by: bag)
            action.errors.sink { _ in outcomes.withLock { $0.errors += 1 } }.disposed(by: bag)
            let gateLock = Locked(0)  // flips serialized, so the final gate is known
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                let program = [a, b, c][thread]
                var mine: [any Disposable] = []
                for code in program {
                    switch code % 10 {
                    case 0: gateLock.withLock { _ in gate.value.toggle() }
                    case 1: mine.popLast()?.dispose()
                    default: mine.append(action.apply(code).sink())
                    }
                }
            }
            pending.wait()
            let counts = concurrent.value
            #expect(counts.most <= 1, "two executions ran at once")
            #expect(counts.now == 0 && counts.starts == counts.ends)
            let outs = outcomes.value
            #expect(outs.outputs + outs.errors <= counts.starts)
            #expect(!action.isExecuting.value)
            #expect(action.isEnabled.value == gate.value)
            for (name, values, now) in [("isExecuting", executing.recordedValues, action.isExecuting.value), ("isEnabled", enabled.recordedValues, action.isEnabled.value)] {
                #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 }, "\(name) delivered a value twice in a row: \(values)")
                #expect(values.last == now, "\(name) ended on \(String(describing: values.last)), reads \(now)")
            }
        }
    }
}
