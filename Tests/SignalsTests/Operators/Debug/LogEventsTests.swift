import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Debug/LogEvents.swift`: its cases of the shared contract
// (run by `OperatorContractTests`) and its own behaviour.

extension OperatorCase {
    /// `LogEvents.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let logEventsCases: [OperatorCase] = [
        OperatorCase(name: "logEvents", apply: { $0.logEvents("contract", to: { _ in }) },
                     completing: ("-a-|", "-a-|"), failing: ("-a-#", "-a-#")),
    ]
}

@Suite struct LogEventsTests {
    @Test func logEventsWritesOneNamedLinePerEvent() {
        let lines = Locked<[String]>([])
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let logged = scheduler.cold("-a-#").signal.logEvents("search") { line in lines.withLock { $0.append(line) } }
        _ = scheduler.marbles(of: logged)
        #expect(lines.withLock { $0 } == ["search: subscribed", "search: value(a)", "search: failed(test error)"])

        lines.withLock { $0 = [] }
        let disposed = scheduler.record(scheduler.cold("-a-b").signal.logEvents("search") { line in lines.withLock { $0.append(line) } })
        scheduler.advance(ticks: 2)
        disposed.dispose()
        #expect(lines.withLock { $0 } == ["search: subscribed", "search: value(a)", "search: disposed"])
    }
}
