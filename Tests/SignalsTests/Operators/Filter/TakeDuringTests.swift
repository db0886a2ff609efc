import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Filter/TakeDuring.swift`: its cases of the shared
// contract (run by `OperatorContractTests`).

extension OperatorCase {
    /// `TakeDuring.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let takeDuringCases: [OperatorCase] = [
        OperatorCase(name: "take(during:)", apply: { $0.take(during: keptAlive.lifetime) },
                     completing: ("-a-b-|", "-a-b-|"), failing: ("-a-#", "-a-#")),
    ]

    /// A lifetime that never ends during the contract, so take(during:) lets everything through.
    static let keptAlive = Lifetime.Token()
}
