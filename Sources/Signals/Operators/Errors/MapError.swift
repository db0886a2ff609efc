extension Signal {
    /// Transforms the failure with `transform`; values and completion pass through.
    ///
    /// ```text
    /// self:      -a-#
    /// mapError:  -a-#
    /// ```
    ///
    /// (The diagram looks the same: only the error's type and value change.)
    @inlinable
    public func mapError<NewFailure>(_ transform: @escaping @Sendable (Failure) -> NewFailure) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure>(unchecked: { downstream in
            self.subscribe(Observer(
                value: downstream.onValue,
                completion: { downstream.send(completion: $0.mapFailure(transform)) },
                link: downstream.link
            ))
        })
    }
}

extension Signal where Failure == Never {
    /// The same stream, typed as able to fail with `NewFailure`, to combine it with streams
    /// that can.
    ///
    /// ```text
    /// self:            -a-|
    /// setFailureType:  -a-|
    /// ```
    @inlinable
    public func setFailureType<NewFailure>(to failureType: NewFailure.Type = NewFailure.self) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure>(unchecked: { downstream in
            self.subscribe(Observer(
                value: downstream.onValue,
                completion: { _ in downstream.sendCompleted() },
                link: downstream.link
            ))
        })
    }
}
