import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/DropFirst.swift`: its cases of the shared
// contract (run by `OperatorContractTests`).

extension OperatorCase {
    /// `DropFirst.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let dropFirstCases: [OperatorCase] = [
        OperatorCase(name: "dropFirst", apply: { $0.dropFirst() },
                     completing: ("-a-b-|", "---b-|"), failing: ("-a-#", "---#")),
        OperatorCase(name: "drop(while:)", apply: { $0.drop { $0 == "a" } },
                     completing: ("-a-b-a-|", "---b-a-|"), failing: ("-a-#", "---#")),
    ]
}
