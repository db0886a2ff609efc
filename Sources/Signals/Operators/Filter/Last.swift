extension Signal {
    /// Emits the last value once the stream completes.
    ///
    /// ```text
    /// self:  -a-b-c-|
    /// last:  -------[c|]
    /// ```
    ///
    /// A stream that completes without a value completes without one. On failure only the
    /// failure is forwarded.
    public func last() -> Signal {
        Signal(unchecked: { downstream in
            let latest = Locked<Value?>(nil)
            return self.subscribe(Observer(
                value: { value in
                    // The replaced value is released after unlocking (its deinit is user code).
                    _ = latest.withLock { latest -> Value? in
                        defer { latest = value }
                        return latest
                    }
                },
                completion: { completion in
                    if case .completed = completion, let value = latest.withLock({ $0 }) {
                        downstream.send(value)
                    }
                    downstream.send(completion: completion)
                },
                link: downstream.link
            ))
        })
    }
}
