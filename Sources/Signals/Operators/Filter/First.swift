extension Signal {
    /// Emits the first value, then completes and disposes the source.
    ///
    /// ```text
    /// self:   --a-b-|
    /// first:  --[a|]
    /// ```
    ///
    /// A stream that completes without a value completes without one.
    public func first() -> Signal {
        prefix(1)
    }

    /// Emits the first value that satisfies `predicate`, then completes.
    ///
    /// ```text
    /// self:         -1-4-6-|
    /// first(where): ---[4|]
    /// ```
    ///
    /// (The predicate in the diagram is `value > 3`.)
    public func first(where predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        filter(predicate).prefix(1)
    }
}
