import Dispatch
import Signals
import Synchronization

/// Waits on the calling thread for a stream's values (RxBlocking). For tests of code that runs
/// on real threads; prefer virtual time for anything time-based.
///
/// ```swift
/// let values = try signal.blocking().toArray()
/// ```
///
/// Never block the thread the stream needs to deliver on (the main thread, for a stream
/// observed on the main scheduler): that deadlocks until the timeout.
public struct BlockingSignal<Value: Sendable, Failure: Error>: Sendable {
    let signal: Signal<Value, Failure>
    let timeout: Duration

    /// How a blocking wait ended.
    public enum Outcome: Sendable {
        /// The stream completed after these values.
        case completed([Value])
        /// The stream failed after these values.
        case failed([Value], Failure)
    }

    /// Waits for the first value; `nil` if the stream completes without one. Throws the
    /// stream's failure, or ``BlockingError/timedOut(after:)``.
    public func first() throws -> Value? {
        try wait(stopAfterFirst: true).values.first
    }

    /// Waits for completion and returns the last value.
    public func last() throws -> Value? {
        try wait(stopAfterFirst: false).values.last
    }

    /// Waits for completion and returns every value.
    public func toArray() throws -> [Value] {
        try wait(stopAfterFirst: false).values
    }

    /// Waits for the terminal event and returns the values with how the stream ended; throws
    /// only ``BlockingError/timedOut(after:)``.
    public func materialize() throws(BlockingError) -> Outcome {
        let result = collect(stopAfterFirst: false)
        guard let completion = result.completion else { throw .timedOut(after: timeout) }
        switch completion {
        case .completed: return .completed(result.values)
        case .failed(let error): return .failed(result.values, error)
        }
    }

    private func wait(stopAfterFirst: Bool) throws -> (values: [Value], completion: Completion<Failure>?) {
        let result = collect(stopAfterFirst: stopAfterFirst)
        if case .failed(let error)? = result.completion { throw error }
        if result.completion == nil && !(stopAfterFirst && !result.values.isEmpty) {
            throw BlockingError.timedOut(after: timeout)
        }
        return result
    }

    private func collect(stopAfterFirst: Bool) -> (values: [Value], completion: Completion<Failure>?) {
        let state = Locked<(values: [Value], completion: Completion<Failure>?)>(([], nil))
        let done = DispatchSemaphore(value: 0)
        let signalled = Locked(false)
        @Sendable func finish() {
            let first = signalled.withLock { flag -> Bool in
                defer { flag = true }
                return !flag
            }
            if first { done.signal() }
        }
        let subscription = signal.subscribe(Observer(
            value: { value in
                state.withLock { $0.values.append(value) }
                if stopAfterFirst { finish() }
            },
            completion: { completion in
                state.withLock { $0.completion = completion }
                finish()
            }
        ))
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        _ = done.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        subscription.dispose()
        return state.withLock { ($0.values, $0.completion) }
    }
}

/// A blocking wait that ran out of time.
public enum BlockingError: Error, Equatable, CustomStringConvertible {
    case timedOut(after: Duration)

    public var description: String {
        switch self {
        case .timedOut(let duration): return "the stream did not finish within \(duration)"
        }
    }
}

extension Signal {
    /// Blocking accessors for this stream, each waiting at most `timeout`.
    public func blocking(timeout: Duration = .seconds(10)) -> BlockingSignal<Value, Failure> {
        BlockingSignal(signal: self, timeout: timeout)
    }
}
