extension Signal {
    /// Builds an operator whose output goes through a guarded box: serialized, nothing after the
    /// terminal event, and the upstream subscription disposed as soon as the output ends.
    ///
    /// `makeUpstream` receives the output box and returns the observer to subscribe upstream
    /// with; it sends into the box with `receive(_:)`. The upstream is stopped early through a
    /// link, so an operator that completes during a synchronous `subscribe` (`prefix`) stops a
    /// source that is still emitting.
    @inlinable
    func lift<NewValue, NewFailure>(
        _ makeUpstream: @escaping @Sendable (ProducerSubscription<NewValue, NewFailure>) -> Observer<Value, Failure>
    ) -> Signal<NewValue, NewFailure> {
        Signal<NewValue, NewFailure>(unchecked: { downstream in
            let output = ProducerSubscription(downstream)
            let link = SubscriptionLink()
            output.setResource(link)
            link.attach(self.subscribe(makeUpstream(output).with(link: link)))
            return output
        })
    }
}
