extension Signal {
    /// Emits values for `duration` from the subscription, then completes and disposes the
    /// source (RxSwift's `take(for:scheduler:)`).
    ///
    /// ```text
    /// self:       -a-b--c-|
    /// take(for):  -a-b|
    /// ```
    ///
    /// (`take(for: 4 ticks)` in the diagram.) A source that completes or fails earlier ends the
    /// output at once, and the timer is cancelled. The completion at the end of `duration` is
    /// sent on `scheduler`; values arrive as the source sends them.
    public func take(for duration: Duration, on scheduler: some Scheduler) -> Signal {
        Signal(unchecked: { downstream in
            let box = SerialBox<Void, Value, Failure>(downstream, state: ())
            box.schedule(after: duration, on: scheduler) { box in box.finish(.completed) }
            box.attach(self, value: { box, value in
                box.emit(value)
            }, completion: { box, completion in
                box.finish(completion)
            })
            return box
        })
    }
}
