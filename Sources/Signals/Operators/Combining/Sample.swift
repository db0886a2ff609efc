@usableFromInline
struct SampleState<Value: Sendable> {
    var fresh: Value?
    var sourceFinished = false
}

extension Signal {
    /// When `trigger` emits, emits the latest value of this stream if it is new since the last
    /// sample.
    ///
    /// ```text
    /// self:     -a-b---c---|
    /// trigger:  ----x-x-x---x-|
    /// sample:   ----b---c---|
    /// ```
    ///
    /// When this stream has completed, the next trigger completes the result; when `trigger`
    /// completes, a pending value is emitted and the result completes. Fails when either fails.
    public func sample<Trigger>(_ trigger: Signal<Trigger, Failure>) -> Signal {
        Signal(unchecked: { downstream in
            let box = SerialBox<SampleState<Value>, Value, Failure>(downstream, state: SampleState())
            box.attach(self, value: { box, value in
                box.state.fresh = value
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed: box.state.sourceFinished = true
                }
            })
            box.attach(trigger, value: { box, _ in
                if let value = box.state.fresh {
                    box.state.fresh = nil
                    box.emit(value)
                }
                if box.state.sourceFinished { box.finish(.completed) }
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed:
                    if let value = box.state.fresh {
                        box.state.fresh = nil
                        box.emit(value)
                    }
                    box.finish(.completed)
                }
            })
            return box
        })
    }
}
