import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Errors/Catch.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `Catch.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let catchCases: [OperatorCase] = [
        OperatorCase(name: "catch", apply: { $0.catch { _ in .just("z") } },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-[z|]")),
    ]
}

@Suite struct CatchTests {
    // T-OP6
    @Test func catchSwitchesToTheFallbackAndDisposesIt() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-a-#")
        let fallback = scheduler.hot("------x-y-z")
        let recorder = scheduler.record(source.signal.catch { _ in fallback.signal }, subscribeAt: 0, disposeAt: 9)
        scheduler.run()
        #expect(scheduler.diagram(of: recorder, showSubscription: true) == "^a----x-y!")
        #expect(fallback.subscriptions == ["---^-----!"])
    }

    @Test func catchReceivesTheError() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let source = scheduler.cold("-#", values: [String: String](), error: TestError("original"))
        let recorder = scheduler.record(source.signal.catch { error in Signal<String, Never>.just(error.message) })
        scheduler.run()
        #expect(recorder.recordedValues == ["original"])
    }
}
