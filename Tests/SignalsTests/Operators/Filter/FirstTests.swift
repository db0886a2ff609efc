import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/First.swift`: its cases of the shared contract
// (run by `OperatorContractTests`).

extension OperatorCase {
    /// `First.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let firstCases: [OperatorCase] = [
        OperatorCase(name: "first", apply: { $0.first() },
                     completing: ("-a-b-|", "-[a|]"), failing: ("-#", "-#")),
        OperatorCase(name: "first(where:)", apply: { $0.first { $0 == "b" } },
                     completing: ("-a-b-|", "---[b|]"), failing: ("-a-#", "---#")),
    ]
}
