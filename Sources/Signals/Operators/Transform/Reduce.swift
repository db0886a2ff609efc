extension Signal {
    /// Accumulates every value with `next`, starting from `initial`, and emits the result once
    /// the stream completes.
    ///
    /// ```text
    /// self:    -1-2-3-|
    /// reduce:  -------[6|]
    /// ```
    ///
    /// An empty stream emits `initial`. On failure only the failure is forwarded.
    public func reduce<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure>(unchecked: { downstream in
            let accumulated = Locked(initial)
            return self.subscribe(Observer(
                value: { value in
                    // Values arrive one at a time (the upstream serializes them), so reading,
                    // computing outside the lock (`next` is user code) and writing back loses
                    // nothing. The old total is released after unlocking.
                    let total = next(accumulated.value, value)
                    _ = accumulated.withLock { state -> Result in
                        defer { state = total }
                        return state
                    }
                },
                completion: { completion in
                    if case .completed = completion {
                        downstream.send(accumulated.withLock { $0 })
                    }
                    downstream.send(completion: completion)
                },
                link: downstream.link
            ))
        })
    }
}
