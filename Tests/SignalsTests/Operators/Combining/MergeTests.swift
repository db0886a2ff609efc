import PropertyBased
import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/Merge.swift`: its cases of the shared contract
// (run by `OperatorContractTests`), its laws on random inputs and its own behaviour. The array
// forms of the combining operators with no input are checked together in OperatorContractTests.

extension OperatorCase {
    /// `Merge.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let mergeCases: [OperatorCase] = [
        OperatorCase(name: "merge", apply: { $0.merge(with: .empty) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct MergeTests: OperatorLawChecks {
    static let programs = OperatorLawInputs.programs

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
}
