import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/Concat.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour. The array forms of the
// combining operators with no input are checked together in OperatorContractTests.
// T-OP3: combining behaviour.

extension OperatorCase {
    /// `Concat.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let concatCases: [OperatorCase] = [
        OperatorCase(name: "prepend", apply: { $0.prepend("x") },
                     completing: ("-a-|", "xa-|"), failing: ("-a-#", "xa-#")),
        OperatorCase(name: "concat", apply: { $0.concat(.just("z")) },
                     completing: ("-a-|", "-a-[z|]"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct ConcatTests {
    @Test func concatOfManySynchronousStreamsDoesNotRecurse() throws {
        let many = Signal.concat(Array(repeating: Signal<Int, Never>.just(1), count: 20_000))
        #expect(try many.reduce(0, +).blocking().toArray() == [20_000])
    }
}
