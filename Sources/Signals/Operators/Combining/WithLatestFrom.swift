@usableFromInline
struct WithLatestFromState<Other: Sendable> {
    var latest: Other?
}

extension Signal {
    /// When this stream emits, combines its value with the latest value of `other` (values of
    /// this stream before `other` has emitted are dropped).
    ///
    /// ```text
    /// self:            -a---b-c-|
    /// other:           ---1----2----|
    /// withLatestFrom:  -----(b1)-(c1)-|
    /// ```
    ///
    /// (In the diagram `combine` joins the two strings.) Completes when this stream completes; `other`'s
    /// completion does not end it; fails when either fails.
    public func withLatestFrom<Other, Result>(
        _ other: Signal<Other, Failure>,
        _ combine: @escaping @Sendable (Value, Other) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure>(unchecked: { downstream in
            let box = SerialBox<WithLatestFromState<Other>, Result, Failure>(downstream, state: WithLatestFromState())
            box.attach(other, value: { box, value in
                box.state.latest = value
            }, completion: { box, completion in
                if case .failed = completion { box.finish(completion) }
            })
            box.attach(self, value: { box, value in
                if let latest = box.state.latest { box.emit(combine(value, latest)) }
            }, completion: { box, completion in
                box.finish(completion)
            })
            return box
        })
    }

    /// When this stream emits, emits the latest value of `other`.
    ///
    /// ```text
    /// self:                   -a---b-|
    /// other:                  ---1---|
    /// withLatestFrom(other):  -----1-|
    /// ```
    public func withLatestFrom<Other>(_ other: Signal<Other, Failure>) -> Signal<Other, Failure> {
        withLatestFrom(other) { _, latest in latest }
    }
}
