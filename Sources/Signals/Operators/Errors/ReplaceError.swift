extension Signal {
    /// On failure, emits `value` and completes; the result cannot fail (RxSwift's
    /// `catchAndReturn`).
    ///
    /// ```text
    /// self:          -a-#
    /// replaceError:  -a-[x|]
    /// ```
    public func replaceError(with value: Value) -> Signal<Value, Never> {
        Signal<Value, Never>(unchecked: { downstream in
            self.subscribe(Observer(
                value: { downstream.send($0) },
                completion: { completion in
                    if case .failed = completion { downstream.send(value) }
                    downstream.sendCompleted()
                },
                link: downstream.link
            ))
        })
    }

    /// On failure, completes instead; the result cannot fail.
    ///
    /// ```text
    /// self:                        -a-#
    /// replaceErrorWithCompletion:  -a-|
    /// ```
    public func replaceErrorWithCompletion() -> Signal<Value, Never> {
        Signal<Value, Never>(unchecked: { downstream in
            self.subscribe(Observer(
                value: { downstream.send($0) },
                completion: { _ in downstream.sendCompleted() },
                link: downstream.link
            ))
        })
    }
}
