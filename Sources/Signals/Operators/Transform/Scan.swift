extension Signal {
    /// Emits a running accumulation: `next(accumulated, value)` for each value, starting from
    /// `initial`.
    ///
    /// ```text
    /// self:  -1-2-3-|
    /// scan:  -1-3-6-|
    /// ```
    ///
    /// Each subscription accumulates from `initial` afresh. Completion and failure pass through.
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure>(unchecked: { downstream in
            let accumulated = Locked(initial)
            return self.subscribe(Observer(
                value: { value in
                    // Values arrive one at a time (the upstream serializes them), so `next`
                    // (user code) runs outside the lock; the old state is released after it.
                    let result = next(accumulated.value, value)
                    _ = accumulated.withLock { state -> Result in
                        defer { state = result }
                        return state
                    }
                    downstream.send(result)
                },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }
}
