extension Signal {
    /// Emits values until `trigger` emits a value, then completes and disposes both (RxSwift's
    /// `take(until:)`).
    ///
    /// ```text
    /// self:     -a-b-c-d-|
    /// trigger:  ------x
    /// prefix:   -a-b-c|
    /// ```
    ///
    /// If `trigger` fails first, the result fails with its error and disposes both, as in
    /// RxSwift; `trigger` completing without a value changes nothing:
    ///
    /// ```text
    /// self:             -a-b-c-d-|
    /// trigger:          ---#
    /// prefix(failing):  -a-#
    /// ```
    ///
    /// A trigger that cannot fail, or a source that cannot fail, takes the overloads below.
    /// A trigger with another failure type needs `mapError` (to forward its failure) or
    /// `replaceErrorWithCompletion()` (to ignore it) first. Events from the two streams are
    /// serialized, so the result never delivers after its end.
    public func prefix<Trigger>(untilOutputFrom trigger: Signal<Trigger, Failure>) -> Signal {
        Signal(unchecked: { downstream in
            let output = ProducerSubscription(downstream)
            let links = CompositeDisposable()
            output.setResource(links)
            let triggerLink = SubscriptionLink()
            links.add(triggerLink)
            triggerLink.attach(trigger.subscribe(Observer(
                value: { _ in output.receive(.completed) },
                completion: { completion in
                    if case .failed = completion { output.receive(completion) }
                },
                link: triggerLink
            )))
            if output.isStopped { return output }
            let sourceLink = SubscriptionLink()
            links.add(sourceLink)
            sourceLink.attach(self.subscribe(output.observer.with(link: sourceLink)))
            return output
        })
    }

    /// Emits values until `trigger`, which cannot fail, emits a value, then completes.
    @_disfavoredOverload
    public func prefix<Trigger>(untilOutputFrom trigger: Signal<Trigger, Never>) -> Signal {
        // Disfavoured: when `Failure` is `Never` too, this overload and the one above are the
        // same, and Swift would call the use ambiguous instead of taking either.
        prefix(untilOutputFrom: trigger.setFailureType(to: Failure.self))
    }

    /// Drops values until `trigger` emits a value, then emits everything (RxSwift's
    /// `skip(until:)`).
    ///
    /// ```text
    /// self:     -a-b-c-d-|
    /// trigger:  ----x
    /// drop:     -----c-d-|
    /// ```
    ///
    /// The trigger subscription ends at its first value. If `trigger` fails before that, the
    /// result fails with its error and disposes both, as in RxSwift. If it completes without a
    /// value, nothing is ever emitted but the source's terminal event.
    ///
    /// ```text
    /// self:           -a-b-c-d-|
    /// trigger:        --#
    /// drop(failing):  --#
    /// ```
    public func drop<Trigger>(untilOutputFrom trigger: Signal<Trigger, Failure>) -> Signal {
        Signal(unchecked: { downstream in
            let output = ProducerSubscription(downstream)
            let links = CompositeDisposable()
            output.setResource(links)
            let open = Locked(false)
            let triggerLink = SubscriptionLink()
            links.add(triggerLink)
            triggerLink.attach(trigger.subscribe(Observer(
                value: { _ in
                    open.withLock { $0 = true }
                    triggerLink.dispose()
                },
                completion: { completion in
                    if case .failed = completion { output.receive(completion) }
                },
                link: triggerLink
            )))
            if output.isStopped { return output }
            let sourceLink = SubscriptionLink()
            links.add(sourceLink)
            sourceLink.attach(self.subscribe(Observer(
                value: { value in if open.withLock({ $0 }) { output.receive(value) } },
                completion: { output.receive($0) },
                link: sourceLink
            )))
            return output
        })
    }

    /// Drops values until `trigger`, which cannot fail, emits a value, then emits everything.
    @_disfavoredOverload
    public func drop<Trigger>(untilOutputFrom trigger: Signal<Trigger, Never>) -> Signal {
        // Disfavoured for the same reason as `prefix(untilOutputFrom:)` above.
        drop(untilOutputFrom: trigger.setFailureType(to: Failure.self))
    }
}

extension Signal where Failure == Never {
    /// Emits values until `trigger` emits a value, then completes; fails if `trigger` fails
    /// first. The source cannot fail, so the result takes the trigger's failure type.
    @_disfavoredOverload
    public func prefix<Trigger, TriggerFailure>(
        untilOutputFrom trigger: Signal<Trigger, TriggerFailure>
    ) -> Signal<Value, TriggerFailure> {
        // Disfavoured so that a trigger that cannot fail either takes the general overload.
        setFailureType(to: TriggerFailure.self).prefix(untilOutputFrom: trigger)
    }

    /// Drops values until `trigger` emits a value, then emits everything; fails if `trigger`
    /// fails first. The source cannot fail, so the result takes the trigger's failure type.
    @_disfavoredOverload
    public func drop<Trigger, TriggerFailure>(
        untilOutputFrom trigger: Signal<Trigger, TriggerFailure>
    ) -> Signal<Value, TriggerFailure> {
        // Disfavoured for the same reason as `prefix(untilOutputFrom:)` above.
        setFailureType(to: TriggerFailure.self).drop(untilOutputFrom: trigger)
    }
}
