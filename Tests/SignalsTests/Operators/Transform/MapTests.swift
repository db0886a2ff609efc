import PropertyBased
import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/Map.swift`: its cases of the shared contract
// (run by `OperatorContractTests`), its laws on random inputs and its own behaviour.

extension OperatorCase {
    /// `Map.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let mapCases: [OperatorCase] = [
        OperatorCase(name: "map", apply: { $0.map { $0.uppercased() } },
                     completing: ("-a-b-|", "-A-B-|"), failing: ("-a-#", "-A-#")),
    ]
}

@Suite struct MapTests: OperatorLawChecks {
    static let values = OperatorLawInputs.values
    static let coefficients = OperatorLawInputs.coefficients

    @Test func mapKeyPath() throws {
        #expect(try ["a", "bcd"].signal.map(\.count).blocking().toArray() == [1, 3])
    }

    /// map fusion: `map(f).map(g)` is `map { g(f($0)) }`, and both are the array's map.
    @Test(.shrinking) func mapFuses() async {
        await propertyCheck(count: 300, input: Self.values, Self.coefficients, Self.coefficients) { values, a, b in
            let f: @Sendable (Int) -> Int = { $0 * a + 1 }
            let g: @Sendable (Int) -> String = { "\($0 - b)" }
            let twice = Self.run(values) { $0.map(f).map(g) }
            let fused = Self.run(values) { $0.map { g(f($0)) } }
            #expect(twice.values == fused.values)
            #expect(twice.values == values.map(f).map(g))
            #expect(twice.completed && fused.completed)
        }
    }
}
