import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Time/Buffer.swift`: its cases of the shared contract
// (run by `OperatorContractTests`).

extension OperatorCase {
    /// `Buffer.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let bufferCases: [OperatorCase] = [
        OperatorCase(name: "buffer(count:)", apply: { $0.buffer(count: 2).map { $0.joined() } },
                     completing: ("-a-b-c-|", "---(ab)---[c|]"), failing: ("-a-#", "---#")),
        OperatorCase(name: "buffer(timeSpan:)", timed: { $0.buffer(timeSpan: .seconds(2), maxCount: 5, on: $1).map { $0.joined() } },
                     completing: ("-a-b-|", "--a-b|"), failing: ("-a-#", "--a#")),
    ]
}
