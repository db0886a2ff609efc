@usableFromInline
struct WindowState<Value: Sendable, Failure: Error> {
    var window: PublishSubject<Value, Failure>?
    var count = 0
    /// Which window is open, so that the timer of a window closed by `count` does nothing.
    var generation = 0
}

extension Signal {
    /// Splits the values into windows, each a stream of its own: a new window opens at the
    /// subscription, then every `timeSpan`, or earlier when `count` values have gone into the
    /// current one, which starts a new span (RxSwift's `window(timeSpan:count:scheduler:)`).
    ///
    /// ```text
    /// self:              -a-b-c---|
    /// window(timeSpan):  ---(ab)---c-[()|]
    /// ```
    ///
    /// (`window(timeSpan: 4 ticks, count: 2)` in the diagram, each window collected into one
    /// value: `(ab)` is a window with a and b, `()` an empty one.) Unlike
    /// ``buffer(timeSpan:maxCount:on:)``, a window with no values is emitted too, as in RxSwift.
    /// A window completes when the next one opens; the source's completion or failure ends the
    /// open window and the output alike. Windows are hot: subscribe to each as it arrives (as
    /// `flatMap` does; `concatMap` would miss values of all but the first). Windows open on
    /// `scheduler`'s timer and with the values that fill them.
    public func window(timeSpan: Duration, count: Int, on scheduler: some Scheduler) -> Signal<Signal<Value, Failure>, Failure> {
        precondition(count > 0, "window: count must be at least 1")
        return Signal<Signal<Value, Failure>, Failure>(unchecked: { downstream in
            typealias Box = SerialBox<WindowState<Value, Failure>, Signal<Value, Failure>, Failure>
            let box = Box(downstream, state: WindowState())
            let timer = SerialDisposable()
            box.resources.add(timer)

            /// Completes the open window and opens the next one, with its own timer.
            @Sendable func open(_ box: Box) {
                box.state.window?.sendCompleted()
                let window = PublishSubject<Value, Failure>()
                box.state.window = window
                box.state.count = 0
                box.state.generation += 1
                let generation = box.state.generation
                timer.inner = scheduler.schedule(after: timeSpan) {
                    box.perform(generation) { box, generation in
                        if box.state.generation == generation { open(box) }
                    }
                }
                box.emit(window.signal)
            }

            box.perform(()) { box, _ in open(box) }
            box.attach(self, value: { box, value in
                box.state.window?.send(value)
                box.state.count += 1
                if box.state.count == count { open(box) }
            }, completion: { box, completion in
                let window = box.state.window
                box.state.window = nil
                window?.send(completion: completion)
                box.finish(completion)
            })
            return box
        })
    }
}
