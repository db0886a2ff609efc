@usableFromInline
struct DebounceState<Value: Sendable> {
    var pending: Value?
    var generation = 0
}

extension Signal {
    /// Emits a value only after `interval` passes with no newer value.
    ///
    /// ```text
    /// self:      a-b---c-d-|
    /// debounce:  -----b----[d|]
    /// ```
    ///
    /// (`debounce(for: 3 ticks)` in the diagram.) A pending value is delivered before
    /// completion; a failure is forwarded at once and drops it. Values arrive on `scheduler`.
    public func debounce(for interval: Duration, on scheduler: some Scheduler) -> Signal {
        Signal(unchecked: { downstream in
            let box = SerialBox<DebounceState<Value>, Value, Failure>(downstream, state: DebounceState())
            let timer = SerialDisposable()
            box.resources.add(timer)
            box.attach(self, value: { box, value in
                box.state.pending = value
                box.state.generation += 1
                let generation = box.state.generation
                timer.inner = scheduler.schedule(after: interval) {
                    box.perform(generation) { box, generation in
                        guard box.state.generation == generation, let value = box.state.pending else { return }
                        box.state.pending = nil
                        box.emit(value)
                    }
                }
            }, completion: { box, completion in
                if case .completed = completion, let value = box.state.pending {
                    box.state.pending = nil
                    box.emit(value)
                }
                box.finish(completion)
            })
            return box
        })
    }
}
