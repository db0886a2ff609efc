extension Signal {
    /// Emits only the values for which `isIncluded` returns `true`.
    ///
    /// ```text
    /// self:    -1-2-3-4-|
    /// filter:  ---2---4-|
    /// ```
    ///
    /// Completion and failure pass through unchanged. Like `map`, it allocates nothing per value.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        // After a `map`, the two run as one stage.
        if let filteredAsOneStage { return filteredAsOneStage(isIncluded) }
        return Signal(unchecked: { downstream in
            let send = downstream.onValue
            return self.subscribe(Observer(
                value: { value in if isIncluded(value) { send(value) } },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }
}
