extension Signal {
    /// Skips the first `count` values (RxSwift's `skip`).
    ///
    /// ```text
    /// self:       -a-b-c-d-|
    /// dropFirst:  -----c-d-|
    /// ```
    ///
    /// (`dropFirst(2)` in the diagram.) Completion and failure pass through, even during the
    /// skipped part.
    public func dropFirst(_ count: Int = 1) -> Signal {
        precondition(count >= 0, "dropFirst: count must not be negative")
        if count == 0 { return self }
        return Signal(unchecked: { downstream in
            let remaining = Locked(count)
            return self.subscribe(Observer(
                value: { value in
                    let skip = remaining.withLock { left -> Bool in
                        guard left > 0 else { return false }
                        left -= 1
                        return true
                    }
                    if !skip { downstream.send(value) }
                },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }

    /// Skips values while `predicate` holds; from the first value for which it does not, emits
    /// everything (RxSwift's `skip(while:)`).
    ///
    /// ```text
    /// self:        -1-2-5-1-|
    /// drop(while): -----5-1-|
    /// ```
    ///
    /// (The predicate in the diagram is `value < 3`.)
    public func drop(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal(unchecked: { downstream in
            let dropping = Locked(true)
            return self.subscribe(Observer(
                value: { value in
                    // The predicate is user code: it runs outside the lock. Values arrive one
                    // at a time (the upstream serializes them).
                    var stillDropping = dropping.value
                    if stillDropping && !predicate(value) {
                        stillDropping = false
                        dropping.withLock { $0 = false }
                    }
                    if !stillDropping { downstream.send(value) }
                },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }
}
