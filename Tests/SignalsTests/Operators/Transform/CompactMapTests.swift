import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/CompactMap.swift`: its cases of the shared
// contract (run by `OperatorContractTests`). The law that filter is compactMap, which spans both
// operators, is in OperatorLawTests.

extension OperatorCase {
    /// `CompactMap.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let compactMapCases: [OperatorCase] = [
        OperatorCase(name: "compactMap", apply: { $0.compactMap { $0 == "x" ? nil : $0 } },
                     completing: ("-a-x-b-|", "-a---b-|"), failing: ("-x-#", "---#")),
    ]
}
