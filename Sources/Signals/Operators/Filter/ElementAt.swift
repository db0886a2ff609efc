extension Signal {
    /// Emits the value at `index` (counting from 0), then completes and disposes the source
    /// (RxSwift's `element(at:)`, Combine's `output(at:)`).
    ///
    /// ```text
    /// self:         -a-b-c-|
    /// element(at):  ---[b|]
    /// ```
    ///
    /// (`element(at: 1)` in the diagram.) A stream that completes with fewer values completes
    /// without one, as ``first()`` does and as Combine's `output(at:)` does; RxSwift fails
    /// with `argumentOutOfRange` instead. A typed failure would force every caller to widen
    /// `Failure` to a sum type for a case most callers treat as "no value", so it stays
    /// `Failure`; to require the value, follow with `timeout` or check completion with
    /// `materialize`. A failure before the value is forwarded.
    public func element(at index: Int) -> Signal {
        precondition(index >= 0, "element(at:): index must not be negative")
        return dropFirst(index).prefix(1)
    }
}
