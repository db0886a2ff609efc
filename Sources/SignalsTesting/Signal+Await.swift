import Signals
import Synchronization

extension Signal {
    /// Waits for the first value; `nil` if the stream completes without one. Throws the
    /// stream's failure, or `CancellationError` if the task is cancelled (which disposes the
    /// subscription).
    public func firstValue() async throws -> Value? {
        try await awaitEvents(stopAfterFirst: true).values.first
    }

    /// Waits for completion and returns every value. Throws the stream's failure, or
    /// `CancellationError` if the task is cancelled.
    public func allValues() async throws -> [Value] {
        try await awaitEvents(stopAfterFirst: false).values
    }

    /// Waits for the terminal event, ignoring values. Throws the stream's failure, or
    /// `CancellationError` if the task is cancelled.
    public func awaitCompletion() async throws {
        _ = try await awaitEvents(stopAfterFirst: false)
    }

    private func awaitEvents(stopAfterFirst: Bool) async throws -> (values: [Value], completion: Completion<Failure>?) {
        let waiter = AsyncWaiter<Value, Failure>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.start(self, stopAfterFirst: stopAfterFirst, continuation: continuation)
            }
        } onCancel: {
            waiter.cancel()
        }
    }
}

/// One `await` on a stream: resumes its continuation exactly once.
private final class AsyncWaiter<Value: Sendable, Failure: Error>: Sendable {
    typealias Result = (values: [Value], completion: Completion<Failure>?)

    private struct State: Sendable {
        var values: [Value] = []
        var continuation: CheckedContinuation<Result, any Error>?
        var subscription: (any Disposable)?
        var isFinished = false
    }

    private let state = Locked(State())

    func start(_ signal: Signal<Value, Failure>, stopAfterFirst: Bool, continuation: CheckedContinuation<Result, any Error>) {
        let cancelled = state.withLock { state -> Bool in
            if state.isFinished { return true }
            state.continuation = continuation
            return false
        }
        if cancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        let subscription = signal.subscribe(Observer(
            value: { [self] value in
                state.withLock { $0.values.append(value) }
                if stopAfterFirst { finish(with: .success(nil)) }
            },
            completion: { [self] completion in
                switch completion {
                case .completed: finish(with: .success(completion))
                case .failed(let error): finish(with: .failure(error))
                }
            }
        ))
        let disposeNow = state.withLock { state -> Bool in
            if state.isFinished { return true }
            state.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    func cancel() {
        finish(with: .failure(CancellationError()))
    }

    private func finish(with outcome: Swift.Result<Completion<Failure>?, any Error>) {
        let (continuation, subscription, values) = state.withLock { state -> (CheckedContinuation<Result, any Error>?, (any Disposable)?, [Value]) in
            if state.isFinished { return (nil, nil, []) }
            state.isFinished = true
            defer {
                state.continuation = nil
                state.subscription = nil
            }
            return (state.continuation, state.subscription, state.values)
        }
        subscription?.dispose()
        guard let continuation else { return }
        switch outcome {
        case .success(let completion): continuation.resume(returning: (values, completion))
        case .failure(let error): continuation.resume(throwing: error)
        }
    }
}
