@usableFromInline
struct MergeState {
    @usableFromInline var unfinished: Int

    @inlinable
    init(unfinished: Int) { self.unfinished = unfinished }
}

extension Signal {
    /// Emits the values of every stream as they arrive.
    ///
    /// ```text
    /// self:   -a---b-|
    /// other:  ---1---2-|
    /// merge(with):  -a-1-b-2-|
    /// ```
    ///
    /// Completes when all have completed; fails as soon as one fails. Values from several threads
    /// are delivered one at a time.
    public func merge(with others: Signal...) -> Signal {
        Signal.merge([self] + others)
    }

    /// Emits the values of every stream in `signals` as they arrive (seed 002's `merge:@[…]`).
    ///
    /// ```text
    /// a:              -a---|
    /// b:              ---b---|
    /// merge([a, b]):  -a-b---|
    /// ```
    ///
    /// An empty array completes at once.
    @inlinable
    public static func merge(_ signals: [Signal]) -> Signal {
        if signals.isEmpty { return .empty }
        if signals.count == 1 { return signals[0] }
        return Signal(unchecked: { downstream in
            let box = SerialBox<MergeState, Value, Failure>(downstream, state: MergeState(unfinished: signals.count))
            for signal in signals {
                box.attach(signal, value: { box, value in
                    box.emit(value)
                }, completion: { box, completion in
                    switch completion {
                    case .failed: box.finish(completion)
                    case .completed:
                        box.state.unfinished -= 1
                        if box.state.unfinished == 0 { box.finish(.completed) }
                    }
                })
            }
            return box
        })
    }
}
