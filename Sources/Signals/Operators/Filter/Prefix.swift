extension Signal {
    /// Emits the first `count` values, then completes and disposes the source (RxSwift's
    /// `take`).
    ///
    /// ```text
    /// self:    -a-b-c-d-|
    /// prefix:  -a-[b|]
    /// ```
    ///
    /// (`prefix(2)` in the diagram.) `prefix(0)` completes at once without subscribing. A source
    /// that emits synchronously during `subscribe` (an endless sequence) is stopped too.
    public func prefix(_ count: Int) -> Signal {
        precondition(count >= 0, "prefix: count must not be negative")
        if count == 0 { return .empty }
        return lift { output in
            let remaining = Locked(count)
            return Observer(
                value: { value in
                    let left = remaining.withLock { left -> Int in
                        left -= 1
                        return left
                    }
                    guard left >= 0 else { return }
                    output.receive(value)
                    if left == 0 { output.receive(.completed) }
                },
                completion: { output.receive($0) }
            )
        }
    }

    /// Emits values while `predicate` holds; completes at the first value for which it does not
    /// (RxSwift's `take(while:)`).
    ///
    /// ```text
    /// self:          -1-2-5-1-|
    /// prefix(while): -1-2-|
    /// ```
    ///
    /// (The predicate in the diagram is `value < 3`.)
    public func prefix(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        lift { output in
            Observer(
                value: { value in
                    if predicate(value) {
                        output.receive(value)
                    } else {
                        output.receive(.completed)
                    }
                },
                completion: { output.receive($0) }
            )
        }
    }
}
