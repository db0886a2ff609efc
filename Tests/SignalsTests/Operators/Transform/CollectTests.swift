import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/Collect.swift`: its cases of the shared
// contract (run by `OperatorContractTests`). collect() of an empty stream is checked with reduce,
// in ReduceTests.

extension OperatorCase {
    /// `Collect.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let collectCases: [OperatorCase] = [
        OperatorCase(name: "collect", apply: { $0.collect().map { $0.joined() } },
                     completing: ("-a-b-|", "-----[(ab)|]"), failing: ("-a-#", "---#")),
    ]
}
