import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/Reduce.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour. The law that scan folds each
// prefix and reduce the whole, which spans both operators, is in OperatorLawTests.

extension OperatorCase {
    /// `Reduce.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let reduceCases: [OperatorCase] = [
        OperatorCase(name: "reduce", apply: { $0.reduce("", +) },
                     completing: ("-a-b-|", "-----[(ab)|]"), failing: ("-a-#", "---#")),
    ]
}

@Suite struct ReduceTests {
    @Test func reduceAndCollectOfAnEmptyStream() throws {
        #expect(try Signal<Int, Never>.empty.reduce(7, +).blocking().toArray() == [7])
        #expect(try Signal<Int, Never>.empty.collect().blocking().toArray() == [[]])
    }
}
