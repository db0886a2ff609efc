extension Signal {
    /// Shifts every value and the completion later by `interval` on `scheduler`; a failure is
    /// forwarded at once, and the values still waiting are dropped.
    ///
    /// ```text
    /// self:   -a-b-|
    /// delay:  ---a-b-|
    /// ```
    ///
    /// (`delay(for: 2 ticks)` in the diagram.)
    public func delay(for interval: Duration, on scheduler: some Scheduler) -> Signal {
        Signal(unchecked: { downstream in
            let box = SerialBox<Void, Value, Failure>(downstream, state: ())
            let timers = TimerBag()
            box.resources.add(timers)
            box.attach(self, value: { box, value in
                timers.schedule(after: interval, on: scheduler) {
                    box.perform(value) { box, value in box.emit(value) }
                }
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed:
                    timers.schedule(after: interval, on: scheduler) {
                        box.perform(()) { box, _ in box.finish(.completed) }
                    }
                }
            })
            return box
        })
    }
}
