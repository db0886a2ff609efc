@usableFromInline
struct TimeoutState {
    var generation = 0
    var timedOut = false
}

extension Signal {
    /// Fails with `failure` if `interval` passes without an event, counted from the
    /// subscription and again after each value.
    ///
    /// ```text
    /// self:              -a----b-|
    /// timeout(failure):  -a--#
    /// ```
    ///
    /// (`timeout(3 ticks)` in the diagram.) The source is disposed when the time runs out.
    public func timeout(for interval: Duration, on scheduler: some Scheduler, failure: @escaping @Sendable () -> Failure) -> Signal {
        timeout(for: interval, on: scheduler, fallback: .deferred { .fail(failure()) })
    }

    /// Switches to `fallback` if `interval` passes without an event, counted from the
    /// subscription and again after each value.
    ///
    /// ```text
    /// self:               -a----b-|
    /// timeout(fallback):  -a--x-y|
    /// ```
    ///
    /// (In the diagram the fallback is `x-y|`.) The source is disposed when
    /// the time runs out.
    public func timeout(for interval: Duration, on scheduler: some Scheduler, fallback: Signal) -> Signal {
        Signal(unchecked: { downstream in
            typealias Box = SerialBox<TimeoutState, Value, Failure>
            let box = Box(downstream, state: TimeoutState())
            let timer = SerialDisposable()
            let fallbackSubscription = SerialDisposable()
            box.resources.add(timer)
            box.resources.add(fallbackSubscription)
            let sourceLink = Locked<SubscriptionLink?>(nil)

            @Sendable func arm(_ box: Box) {
                box.state.generation += 1
                let generation = box.state.generation
                timer.inner = scheduler.schedule(after: interval) {
                    box.perform(generation) { box, generation in
                        guard box.state.generation == generation, !box.state.timedOut else { return }
                        box.state.timedOut = true
                        sourceLink.value?.dispose()
                        let link = SubscriptionLink()
                        fallbackSubscription.inner = link
                        link.attach(fallback.subscribe(Observer(
                            value: { value in box.perform(value) { box, value in box.emit(value) } },
                            completion: { completion in box.perform(completion) { box, completion in box.finish(completion) } },
                            link: link
                        )))
                    }
                }
            }

            box.perform(()) { box, _ in arm(box) }
            let link = box.attach(self, value: { box, value in
                guard !box.state.timedOut else { return }
                box.emit(value)
                arm(box)
            }, completion: { box, completion in
                guard !box.state.timedOut else { return }
                box.finish(completion)
            })
            sourceLink.withLock { $0 = link }
            return box
        })
    }
}
