import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/IgnoreValues.swift`: its cases of the shared
// contract (run by `OperatorContractTests`).

extension OperatorCase {
    /// `IgnoreValues.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let ignoreValuesCases: [OperatorCase] = [
        OperatorCase(name: "ignoreValues", apply: { $0.ignoreValues(as: String.self) },
                     completing: ("-a-b-|", "-----|"), failing: ("-a-#", "---#")),
    ]
}
