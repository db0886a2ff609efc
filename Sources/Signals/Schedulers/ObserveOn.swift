extension Signal {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// ```text
    /// self:        a-b-|
    /// observe(on): a-b-|   (each event hops to the scheduler)
    /// ```
    ///
    /// The scheduler must run actions in order (every scheduler of this package does). After
    /// disposal nothing more is delivered, even if actions were already scheduled.
    public func observe(on scheduler: some Scheduler) -> Signal {
        lift { output in
            Observer(
                value: { value in scheduler.schedule { output.receive(value) } },
                completion: { completion in scheduler.schedule { output.receive(completion) } }
            )
        }
    }

    /// Subscribes to `self` (and so runs its producer) on `scheduler`.
    ///
    /// ```text
    /// self:           -a-|
    /// subscribe(on):  -a-|   (the subscription itself hops to the scheduler)
    /// ```
    ///
    /// Disposing before the scheduled subscription has run cancels it; disposing afterwards
    /// ends the subscription at once, on the calling thread.
    public func subscribe(on scheduler: some Scheduler) -> Signal {
        Signal(unchecked: { downstream in
            let serial = SerialDisposable()
            downstream.link?.attach(serial)
            scheduler.schedule {
                if serial.isDisposed { return }
                serial.inner = self.subscribe(downstream.with(link: nil))
            }
            return serial
        })
    }
}
