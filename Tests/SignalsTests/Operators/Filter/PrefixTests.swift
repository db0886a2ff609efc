import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/Prefix.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `Prefix.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let prefixCases: [OperatorCase] = [
        OperatorCase(name: "prefix", apply: { $0.prefix(2) },
                     completing: ("-a-b-c-|", "-a-[b|]"), failing: ("-a-#", "-a-#")),
        OperatorCase(name: "prefix(while:)", apply: { $0.prefix { $0 != "x" } },
                     completing: ("-a-x-b-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct PrefixTests {
    // T-OP2
    @Test func prefixZeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-|")
        #expect(scheduler.marbles(of: source.signal.prefix(0)) == "|")
        #expect(source.subscriptions.isEmpty)
    }

    @Test func prefixDisposesTheSourceWhenDone() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.hot("-a-b-c-d-|")
        _ = scheduler.marbles(of: source.signal.prefix(2))
        #expect(source.subscriptions == ["^--!"])
    }
}
