/// A stream's values as an `AsyncSequence`: `for try await value in signal.values`.
///
/// Iterating subscribes; values that arrive faster than the loop takes them are buffered in
/// order. The loop ends when the stream completes, throws the stream's typed failure, and ends
/// (returning `nil`) when the iterating task is cancelled, which disposes the subscription. So
/// does leaving the loop early.
public struct SignalValues<Value: Sendable, Failure: Error>: AsyncSequence, Sendable {
    public typealias Element = Value

    let signal: Signal<Value, Failure>

    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: AsyncValueBuffer(signal))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let buffer: AsyncValueBuffer<Value, Failure>

        public mutating func next() async throws(Failure) -> Value? {
            try await buffer.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            try await buffer.next()
        }
    }
}

extension Signal {
    /// The values as an `AsyncSequence`, keeping the typed failure:
    ///
    /// ```swift
    /// for try await results in search.values { show(results) }
    /// ```
    ///
    /// Cancelling the task or leaving the loop disposes the subscription.
    public var values: SignalValues<Value, Failure> {
        SignalValues(signal: self)
    }
}

/// The subscription behind one async iterator: buffered events and at most one waiting `next`.
final class AsyncValueBuffer<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var started = false
        var buffer: [Value] = []
        var end: Result<Void, Failure>?
        var waiting: CheckedContinuation<Result<Value?, Failure>, Never>?
        var subscription: (any Disposable)?
        var cancelled = false
    }

    private let state = Locked(State())
    private let signal: Signal<Value, Failure>

    init(_ signal: Signal<Value, Failure>) {
        self.signal = signal
    }

    deinit {
        let subscription = state.withLock { $0.subscription }
        subscription?.dispose()
    }

    func next() async throws(Failure) -> Value? {
        startIfNeeded()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value?, Failure>, Never>) in
                let ready = state.withLock { state -> Result<Value?, Failure>? in
                    if state.cancelled { return .success(nil) }
                    if !state.buffer.isEmpty { return .success(state.buffer.removeFirst()) }
                    if let end = state.end {
                        switch end {
                        case .success: return .success(nil)
                        case .failure(let error):
                            state.end = .success(())
                            return .failure(error)
                        }
                    }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    private func startIfNeeded() {
        let mustStart = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard mustStart else { return }
        let subscription = signal.subscribe(Observer(
            value: { [weak self] value in self?.receive(.success(value)) },
            completion: { [weak self] completion in
                switch completion {
                case .completed: self?.finish(.success(()))
                case .failed(let error): self?.finish(.failure(error))
                }
            }
        ))
        let disposeNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    private func receive(_ value: Result<Value, Never>) {
        guard case .success(let value) = value else { return }
        let waiting = state.withLock { state -> CheckedContinuation<Result<Value?, Failure>, Never>? in
            if state.cancelled { return nil }
            if let waiting = state.waiting {
                state.waiting = nil
                return waiting
            }
            state.buffer.append(value)
            return nil
        }
        waiting?.resume(returning: .success(value))
    }

    private func finish(_ end: Result<Void, Failure>) {
        // The subscription is taken out and released after unlocking.
        let (waiting, _) = state.withLock { state -> (CheckedContinuation<Result<Value?, Failure>, Never>?, (any Disposable)?) in
            state.end = end
            let subscription = state.subscription
            state.subscription = nil
            guard let waiting = state.waiting else { return (nil, subscription) }
            state.waiting = nil
            if case .failure = end { state.end = .success(()) }
            return (waiting, subscription)
        }
        guard let waiting else { return }
        switch end {
        case .success: waiting.resume(returning: .success(nil))
        case .failure(let error): waiting.resume(returning: .failure(error))
        }
    }

    private func cancel() {
        // Buffered values are taken out and released after unlocking (their deinit is user code).
        let (waiting, subscription, _) = state.withLock { state -> (CheckedContinuation<Result<Value?, Failure>, Never>?, (any Disposable)?, [Value]) in
            state.cancelled = true
            let dropped = state.buffer
            state.buffer = []
            defer {
                state.waiting = nil
                state.subscription = nil
            }
            return (state.waiting, state.subscription, dropped)
        }
        subscription?.dispose()
        waiting?.resume(returning: .success(nil))
    }
}
