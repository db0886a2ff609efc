import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/Last.swift`: its cases of the shared contract
// (run by `OperatorContractTests`).

extension OperatorCase {
    /// `Last.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let lastCases: [OperatorCase] = [
        OperatorCase(name: "last", apply: { $0.last() },
                     completing: ("-a-b-|", "-----[b|]"), failing: ("-a-#", "---#")),
    ]
}
