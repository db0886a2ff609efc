import PropertyBased
import Signals
import SignalsTesting
import Testing

// Cross-cutting: the operator laws that span two operators each. The laws about one operator
// are in that operator's tests file (map in Transform/MapTests.swift, merge, combineLatest and
// zip in Combining/, grouped(by:) in Transform/GroupByTests.swift); their inputs and drivers
// are in OperatorTestSupport.swift.

/// Issue 15: operator laws, checked on random inputs (shrunk to the smallest failing case by
/// PropertyBased) against a plain reference: what the operator must do, written as a loop over
/// an array. The marble round trip has its own file (MarbleDiagramRoundTripTests).
@Suite struct OperatorLawTests: OperatorLawChecks {
    static let values = OperatorLawInputs.values
    static let coefficients = OperatorLawInputs.coefficients

    /// filter is compactMap with `nil` for the rejected, and both are the array's filter, in order.
    @Test(.shrinking) func filterIsCompactMap() async {
        await propertyCheck(count: 300, input: Self.values, Gen.int(in: 1...6)) { values, modulus in
            let keep: @Sendable (Int) -> Bool = { $0 % modulus == 0 }
            let filtered = Self.run(values) { $0.filter(keep) }
            let compact = Self.run(values) { $0.compactMap { keep($0) ? $0 : nil } }
            #expect(filtered.values == compact.values)
            #expect(filtered.values == values.filter(keep))
        }
    }

    /// scan emits every prefix's fold; reduce emits the whole fold once, at the end.
    @Test(.shrinking) func scanIsAFoldOfEachPrefix() async {
        await propertyCheck(count: 300, input: Self.values, Self.coefficients) { values, seed in
            let scanned = Self.run(values) { $0.scan(seed) { $0 * 2 - $1 } }
            var folds: [Int] = []
            var accumulator = seed
            for value in values {
                accumulator = accumulator * 2 - value
                folds.append(accumulator)
            }
            #expect(scanned.values == folds)
            let reduced = Self.run(values) { $0.reduce(seed) { $0 * 2 - $1 } }
            #expect(reduced.values == [values.reduce(seed) { $0 * 2 - $1 }])
            #expect(reduced.completed)
        }
    }
}
