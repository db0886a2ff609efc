import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Errors/ReplaceError.swift`: its cases of the shared
// contract (run by `OperatorContractTests`).

extension OperatorCase {
    /// `ReplaceError.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let replaceErrorCases: [OperatorCase] = [
        OperatorCase(name: "replaceError", apply: { $0.replaceError(with: "z").setFailureType(to: TestError.self) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-[z|]")),
        OperatorCase(name: "replaceErrorWithCompletion", apply: { $0.replaceErrorWithCompletion().setFailureType(to: TestError.self) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-|")),
    ]
}
