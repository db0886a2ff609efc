import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/Scan.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour. The law that scan folds each prefix and
// reduce the whole, which spans both operators, is in OperatorLawTests.

extension OperatorCase {
    /// `Scan.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let scanCases: [OperatorCase] = [
        OperatorCase(name: "scan", apply: { $0.scan("", +) },
                     completing: ("-a-b-c-|", "-a-(ab)-(abc)-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct ScanTests {
    // T-OP1
    @Test func scanStartsAfreshForEachSubscription() throws {
        let running = [1, 2, 3].signal.scan(0, +)
        #expect(try running.blocking().toArray() == [1, 3, 6])
        #expect(try running.blocking().toArray() == [1, 3, 6])
    }
}
