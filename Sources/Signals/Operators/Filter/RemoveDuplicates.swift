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
                    let isNew = previous.withLock { last -> Bool in
                        defer { last = value }
                        guard let last else { return true }
                        return !isDuplicate(last, value)
                    }
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
