import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Errors/MapError.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `MapError.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let mapErrorCases: [OperatorCase] = [
        OperatorCase(name: "mapError", apply: { $0.mapError { _ in TestError("mapped") } },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct MapErrorTests {
    @Test func setFailureTypeAndMapError() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let widened: Signal<String, TestError> = scheduler.cold("-a-|", values: ["a": "a"], error: TestError()).signal
        let mapped = widened.mapError { TestError("mapped: \($0.message)") }
        #expect(scheduler.marbles(of: mapped) == "-a-|")
        let failing = scheduler.cold("#").signal.mapError { TestError("mapped: \($0.message)") }
        let recorder = Recorder<String, TestError>()
        recorder.subscribe(to: failing)
        scheduler.run()
        #expect(recorder.failure == TestError("mapped: test error"))
    }
}
