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
    /// Only a value from `trigger` ends the stream; its completion or failure is ignored.
    /// Events from the two streams are serialized, so the result never delivers after its end.
    public func prefix<Trigger, TriggerFailure>(untilOutputFrom trigger: Signal<Trigger, TriggerFailure>) -> Signal {
        Signal(unchecked: { downstream in
            let output = ProducerSubscription(downstream)
            let links = CompositeDisposable()
            output.setResource(links)
            let triggerLink = SubscriptionLink()
            links.add(triggerLink)
            triggerLink.attach(trigger.subscribe(Observer(
                value: { _ in output.receive(.completed) },
                completion: { _ in },
                link: triggerLink
            )))
            if output.isStopped { return output }
            let sourceLink = SubscriptionLink()
            links.add(sourceLink)
            sourceLink.attach(self.subscribe(output.observer.with(link: sourceLink)))
            return output
        })
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
    /// The trigger subscription ends at its first value. If `trigger` completes or fails
    /// without a value, nothing is ever emitted but the source's terminal event.
    public func drop<Trigger, TriggerFailure>(untilOutputFrom trigger: Signal<Trigger, TriggerFailure>) -> Signal {
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
                completion: { _ in },
                link: triggerLink
            )))
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
}
