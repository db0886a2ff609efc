import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/DelaySubscription.swift`: its cases of the shared
// contract (run by `OperatorContractTests`).

extension OperatorCase {
    /// `DelaySubscription.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let delaySubscriptionCases: [OperatorCase] = [
        OperatorCase(name: "delaySubscription", timed: { $0.delaySubscription(for: .seconds(1), on: $1) },
                     completing: ("-a-b-|", "--a-b-|"), failing: ("-a-#", "--a-#")),
    ]
}
