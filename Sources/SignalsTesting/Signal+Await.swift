import Signals

/// One-shot waits for tests, built on `Signal.values` (which owns the subscription and
/// disposes it when the wait ends or its task is cancelled).
extension Signal {
    /// Waits for the first value; `nil` if the stream completes without one. Throws the
    /// stream's failure, or `CancellationError` if the task is cancelled (which disposes the
    /// subscription).
    public func firstValue() async throws -> Value? {
        var iterator = values.makeAsyncIterator()
        guard let value = try await iterator.next() else {
            try Task.checkCancellation()
            return nil
        }
        return value
    }

    /// Waits for completion and returns every value. Throws the stream's failure, or
    /// `CancellationError` if the task is cancelled.
    public func allValues() async throws -> [Value] {
        var all: [Value] = []
        for try await value in values { all.append(value) }
        try Task.checkCancellation()
        return all
    }

    /// Waits for the terminal event, ignoring values. Throws the stream's failure, or
    /// `CancellationError` if the task is cancelled.
    public func awaitCompletion() async throws {
        for try await _ in values {}
        try Task.checkCancellation()
    }
}
