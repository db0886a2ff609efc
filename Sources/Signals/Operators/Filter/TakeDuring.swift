extension Signal {
    /// Emits values until `lifetime` ends, then completes and disposes the source (ReactiveSwift's
    /// `take(during:)`).
    ///
    /// ```text
    /// self:          -a-b-c-d-|
    /// take(during):  -a-b-|       (the lifetime ends at tick 5)
    /// ```
    ///
    /// Use it to tie a subscription to an owner: when the owner's ``Lifetime/Token`` goes away,
    /// the subscription ends. A lifetime that has already ended gives an empty stream.
    public func take(during lifetime: Lifetime) -> Signal {
        Signal(unchecked: { downstream in
            let output = ProducerSubscription(downstream)
            let links = CompositeDisposable()
            output.setResource(links)
            links.add(lifetime.observeEnded { output.receive(.completed) })
            if output.isStopped { return output }
            let sourceLink = SubscriptionLink()
            links.add(sourceLink)
            sourceLink.attach(self.subscribe(output.observer.with(link: sourceLink)))
            return output
        })
    }
}
