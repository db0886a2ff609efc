extension Signal {
    /// Transforms each value with `transform`.
    ///
    /// ```text
    /// self:  -a-b-c-|
    /// map:   -A-B-C-|
    /// ```
    ///
    /// Completion and failure pass through unchanged. `map` keeps no state and allocates nothing
    /// per value: it fuses into the subscriber when the subscription starts. A ``filter(_:)``
    /// right after it joins it as one stage, so each value makes one call through the pair.
    @inlinable
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure>(unchecked: { downstream in
            // Captures the downstream's value closure alone, not the whole observer: a smaller
            // context per subscription.
            let send = downstream.onValue
            return self.subscribe(Observer(
                value: { value in send(transform(value)) },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        }, filteredAsOneStage: { isIncluded in
            self.map(transform, filter: isIncluded)
        })
    }

    /// `map(transform).filter(isIncluded)` as one stage: one call per value through the chain.
    @inlinable
    func map<NewValue>(
        _ transform: @escaping @Sendable (Value) -> NewValue,
        filter isIncluded: @escaping @Sendable (NewValue) -> Bool
    ) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure>(unchecked: { downstream in
            let send = downstream.onValue
            return self.subscribe(Observer(
                value: { value in
                    let mapped = transform(value)
                    if isIncluded(mapped) { send(mapped) }
                },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }

    /// Replaces each value with the value at `keyPath`.
    @inlinable
    public func map<NewValue>(_ keyPath: any KeyPath<Value, NewValue> & Sendable) -> Signal<NewValue, Failure> {
        map { $0[keyPath: keyPath] }
    }
}
