import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/Materialize.swift`: its cases of the shared
// contract (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `Materialize.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let materializeCases: [OperatorCase] = [
        OperatorCase(name: "materialize", apply: { $0.materialize().map(eventText).setFailureType(to: TestError.self) },
                     completing: ("-a-|", "-a-[(|)|]"), failing: ("-a-#", "-a-[(#)|]")),
        OperatorCase(name: "dematerialize", apply: { $0.materialize().dematerialize() },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]

    @Sendable static func eventText(_ event: Event<String, TestError>) -> String {
        switch event {
        case .value(let value): return value
        case .completed: return "|"
        case .failed: return "#"
        }
    }
}

@Suite struct MaterializeTests {
    @Test func materializeNeverFailsAndDematerializeRestoresTheFailure() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-#")
        let recorder = scheduler.record(source.signal.materialize())
        scheduler.run()
        #expect(recorder.elements == [.value(.value("a")), .value(.failed(TestError())), .completed])
        let restored: Signal<String, TestError> = source.signal.materialize().dematerialize()
        let roundTrip = Recorder<String, TestError>(scheduler: scheduler)
        roundTrip.subscribe(to: restored)
        scheduler.run()
        #expect(roundTrip.elements == [.value("a"), .failed(TestError())])
    }
}
