import Signals

/// What the store asks of a database engine (SQLite, PostgreSQL). The store calls one method at
/// a time, never two at once (``Store`` serializes them).
package protocol StoreEngine: Sendable {
    /// The SQL the engine speaks, for statements that differ (migrations).
    var dialect: StoreDialect { get }
    /// How long a request may wait for the database before it is refused as unavailable
    /// (PostgreSQL's request timeout, SQLite's busy timeout).
    var patience: Duration { get }
    /// Wakes the store when another process may have changed something (PostgreSQL's `NOTIFY`);
    /// `nil` if the store should look every so often instead (SQLite).
    var notices: AsyncStream<Void>? { get }
    /// Runs `sql` (a read) and returns its rows. `reads`, when given, is what the query declared:
    /// an engine that can see which tables a statement reads fails it if it reads another.
    func fetch(_ sql: String, _ binds: [StoreValue], declaredReads reads: Set<String>?) async throws(StoreError) -> [StoreRow]
    /// Runs `body` in one transaction (rolled back if it throws); returns its value and the tables
    /// it changed (lower-cased).
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T
    ) async throws(StoreError) -> (value: T, changed: Set<String>)
    /// What other processes changed since the last call: `nil` if nothing, an empty set if
    /// something may have changed but the engine cannot tell which tables.
    func changesElsewhere() async throws(StoreError) -> Set<String>?
    /// Closes the connections; later calls fail with ``StoreError/closed``.
    func close() async
}

/// The SQL an engine speaks.
public enum StoreDialect: Sendable, Equatable {
    case sqlite
    case postgres
}

/// Runs async operations one at a time, in the order they took their place in line (a FIFO lock
/// for async code). A place is taken synchronously (``reserve()``), so work started from
/// synchronous code (a subscription) is ordered with whatever is asked after it returns.
final class AsyncSerial: Sendable {
    private struct State {
        var next = 0
        var serving = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// Takes the next place in line.
    func reserve() -> Int {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Runs `body` at the place `ticket` (from ``reserve()``), then gives the turn to the next.
    func run<T: Sendable, E: Error>(at ticket: Int, _ body: () async throws(E) -> T) async throws(E) -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.serving == ticket { return true }
                state.waiting[ticket] = continuation
                return false
            }
            if now { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.serving += 1
                return state.waiting.removeValue(forKey: state.serving)
            }
            next?.resume()
        }
        return try await body()
    }

    /// Runs `body` after everything already in line.
    func run<T: Sendable, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        try await run(at: reserve(), body)
    }
}
