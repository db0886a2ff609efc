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
        // A filter after a map joins it as one stage: the same contract.
        OperatorCase(name: "map then filter", apply: { $0.map { $0.uppercased() }.filter { $0 != "X" } },
                     completing: ("-a-x-b-|", "-A---B-|"), failing: ("-x-a-#", "---A-#")),
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

    /// T-OP1, T-OP2: a filter after a map runs with it as one stage: `map(f).filter(p)`, with more stages
    /// after it, is the array's map then filter, whichever stage comes next, and a failure passes
    /// through after the values.
    @Test(.shrinking) func mapThenFilterIsTheArraysMapThenFilter() async {
        await propertyCheck(count: 300, input: Self.values, Self.coefficients, Gen.int(in: 1...4)) { values, a, modulus in
            let f: @Sendable (Int) -> Int = { $0 * a + 1 }
            let p: @Sendable (Int) -> Bool = { $0 % modulus == 0 }
            let q: @Sendable (Int) -> Bool = { $0 > 0 }
            let expected = values.map(f).filter(p)
            let joined = Self.run(values) { $0.map(f).filter(p) }
            #expect(joined.values == expected && joined.completed)
            #expect(Self.run(values) { $0.map(f).filter(p).filter(q) }.values == expected.filter(q))
            #expect(Self.run(values) { $0.map(f).filter(p).map { $0 - a } }.values == expected.map { $0 - a })
            #expect(Self.run(values) { $0.map(f).map(f).filter(p) }.values == values.map(f).map(f).filter(p))
            #expect(Self.run(values) { $0.filter(p).map(f).filter(q) }.values == values.filter(p).map(f).filter(q))
            let failing = Signal<Int, TestError>(sequence: values).concat(.fail(TestError("e"))).map(f).filter(p).blocking()
            #expect(throws: TestError.self) { try failing.toArray() }
        }
    }

    /// T-OP1, T-OP2: the map and the filter of one stage each run once per value, in that order, and a
    /// signal built by map stays usable on its own after a filter joined it.
    @Test func mapThenFilterCallsEachOncePerValue() throws {
        let calls = Locked<[String]>([])
        let mapped = ["a", "b"].signal.map { value -> String in
            calls.withLock { $0.append("map \(value)") }
            return value.uppercased()
        }
        let filtered = mapped.filter { value in
            calls.withLock { $0.append("filter \(value)") }
            return value == "B"
        }
        #expect(try filtered.blocking().toArray() == ["B"])
        #expect(calls.value == ["map a", "filter A", "map b", "filter B"])
        #expect(try mapped.blocking().toArray() == ["A", "B"])
    }
}
