import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/RemoveDuplicates.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `RemoveDuplicates.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let removeDuplicatesCases: [OperatorCase] = [
        OperatorCase(name: "removeDuplicates", apply: { $0.removeDuplicates() },
                     completing: ("-a-a-b-|", "-a---b-|"), failing: ("-a-a-#", "-a---#")),
    ]
}

@Suite struct RemoveDuplicatesTests {
    @Test func removeDuplicatesByACustomComparison() throws {
        let values = try ["a", "A", "b", "B", "a"].signal.removeDuplicates { $0.lowercased() == $1.lowercased() }.blocking().toArray()
        #expect(values == ["a", "b", "a"])
    }
}
