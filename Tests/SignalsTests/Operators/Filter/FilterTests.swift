import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/Filter.swift`: its cases of the shared contract
// (run by `OperatorContractTests`). The law that filter is compactMap, which spans both operators,
// is in OperatorLawTests.

extension OperatorCase {
    /// `Filter.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let filterCases: [OperatorCase] = [
        OperatorCase(name: "filter", apply: { $0.filter { $0 != "x" } },
                     completing: ("-a-x-b-|", "-a---b-|"), failing: ("-x-#", "---#")),
    ]
}
