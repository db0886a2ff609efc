/// What the store asks of a database engine (SQLite here; PostgreSQL to come). The store calls
/// one method at a time, never two at once (``Store`` serializes them), so an engine keeps no
/// locks of its own around its connection.
package protocol StoreEngine: Sendable {
    /// Runs `sql` (a read) and returns its rows. `reads`, when given, is what the query declared:
    /// an engine that can see which tables a statement reads fails it if it reads another.
    func fetch(_ sql: String, _ binds: [StoreValue], declaredReads reads: Set<String>?) async throws(StoreError) -> [StoreRow]
    /// Starts a transaction that writes.
    func begin() async throws(StoreError)
    /// Runs one statement inside the transaction; returns its rows (`RETURNING`).
    func execute(_ sql: String, _ binds: [StoreValue]) async throws(StoreError) -> [StoreRow]
    /// Commits, returning the tables the transaction changed (lower-cased).
    func commit() async throws(StoreError) -> Set<String>
    /// Rolls back (after a failure); never throws.
    func rollback() async
    /// What other processes changed since the last call: `nil` if nothing, an empty set if
    /// something changed but the engine cannot tell which tables.
    func changesElsewhere() async throws(StoreError) -> Set<String>?
    /// Closes the connection; later calls fail with ``StoreError/closed``.
    func close() async
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

import Signals
