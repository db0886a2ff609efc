@usableFromInline
struct BufferState<Value: Sendable> {
    var buffer: [Value] = []
    var window = 0
}

extension Signal {
    /// Collects values into arrays of `count`; the last, shorter array is emitted on completion.
    ///
    /// ```text
    /// self:           -a-b-c-d-e-|
    /// buffer(count):  ---(ab)---(cd)---[e|]
    /// ```
    ///
    /// (`buffer(count: 2)` in the diagram; `(ab)` is the array [a, b].) On failure
    /// the collected values are dropped.
    public func buffer(count: Int) -> Signal<[Value], Failure> {
        precondition(count > 0, "buffer: count must be at least 1")
        return Signal<[Value], Failure>(unchecked: { downstream in
            let box = SerialBox<BufferState<Value>, [Value], Failure>(downstream, state: BufferState())
            box.attach(self, value: { box, value in
                box.state.buffer.append(value)
                if box.state.buffer.count == count {
                    let full = box.state.buffer
                    box.state.buffer = []
                    box.emit(full)
                }
            }, completion: { box, completion in
                if case .completed = completion, !box.state.buffer.isEmpty {
                    box.emit(box.state.buffer)
                    box.state.buffer = []
                }
                box.finish(completion)
            })
            return box
        })
    }

    /// Emits the values collected during each `timeSpan`, or earlier when `maxCount` values have
    /// arrived, which starts a new span (RxSwift's `buffer(timeSpan:count:scheduler:)`, except
    /// that a span with no values emits nothing, as in Combine).
    ///
    /// ```text
    /// self:              -a-bc----|
    /// buffer(timeSpan):  ---a(bc)----|
    /// ```
    ///
    /// (`buffer(timeSpan: 3 ticks, maxCount: 2)` in the diagram; `(bc)` is the array [b, c].)
    /// Values still collected are emitted on completion; on failure they are dropped.
    public func buffer(timeSpan: Duration, maxCount: Int, on scheduler: some Scheduler) -> Signal<[Value], Failure> {
        precondition(maxCount > 0, "buffer: maxCount must be at least 1")
        return Signal<[Value], Failure>(unchecked: { downstream in
            typealias Box = SerialBox<BufferState<Value>, [Value], Failure>
            let box = Box(downstream, state: BufferState())
            let timer = SerialDisposable()
            box.resources.add(timer)

            /// Starts a new span; a span ended by `maxCount` cancels its own timer.
            @Sendable func startSpan(_ box: Box) {
                box.state.window += 1
                let window = box.state.window
                timer.inner = scheduler.schedule(after: timeSpan) {
                    box.perform(window) { box, window in
                        if box.state.window == window { flushAndRestart(box) }
                    }
                }
            }

            @Sendable func flushAndRestart(_ box: Box) {
                let values = box.state.buffer
                box.state.buffer = []
                startSpan(box)
                if !values.isEmpty { box.emit(values) }
            }

            box.perform(()) { box, _ in startSpan(box) }
            box.attach(self, value: { box, value in
                box.state.buffer.append(value)
                if box.state.buffer.count == maxCount { flushAndRestart(box) }
            }, completion: { box, completion in
                if case .completed = completion, !box.state.buffer.isEmpty {
                    box.emit(box.state.buffer)
                    box.state.buffer = []
                }
                box.finish(completion)
            })
            return box
        })
    }
}
