extension Signal {
    /// Transforms each value and drops the ones for which `transform` returns `nil`.
    ///
    /// ```text
    /// self:        -a-1-b-2-|
    /// compactMap:  ---1---2-|
    /// ```
    ///
    /// Completion and failure pass through unchanged.
    @inlinable
    public func compactMap<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue?) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure>(unchecked: { downstream in
            let send = downstream.onValue
            return self.subscribe(Observer(
                value: { value in if let new = transform(value) { send(new) } },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }
}
