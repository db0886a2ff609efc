extension Signal {
    /// Drops a value when it equals the one emitted just before it (RxSwift's
    /// `distinctUntilChanged`).
    ///
    /// ```text
    /// self:              -a-a-b-a-a-|
    /// removeDuplicates:  -a---b-a---|
    /// ```
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        Signal(unchecked: { downstream in
            let previous = Locked<Value?>(nil)
            return self.subscribe(Observer(
                value: { value in
                    // Swap under the lock; compare (user code) and release the old value
                    // outside it.
                    let last = previous.withLock { last -> Value? in
                        defer { last = value }
                        return last
                    }
                    let isNew = last.map { !isDuplicate($0, value) } ?? true
                    if isNew { downstream.send(value) }
                },
                completion: downstream.onCompletion,
                link: downstream.link
            ))
        })
    }
}

extension Signal where Value: Equatable {
    /// Drops a value when it equals the one emitted just before it (RxSwift's
    /// `distinctUntilChanged`).
    ///
    /// ```text
    /// self:              -a-a-b-a-a-|
    /// removeDuplicates:  -a---b-a---|
    /// ```
    public func removeDuplicates() -> Signal {
        removeDuplicates(by: ==)
    }
}
