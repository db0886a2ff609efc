extension Signal {
    /// On failure, continues with the stream `handler` returns for the error.
    ///
    /// ```text
    /// self:    -a-#
    /// catch:   -a-x-y-|
    /// ```
    ///
    /// (In the diagram the handler returns a stream that emits `x`, then `y` two ticks later, then completes.)
    /// Values and completion pass through. The fallback may fail with another error type.
    public func `catch`<NewFailure>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure>(unchecked: { downstream in
            let subscriptions = CompositeDisposable()
            downstream.link?.attach(subscriptions)
            let fallback = SerialDisposable()
            subscriptions.add(fallback)
            let primaryLink = SubscriptionLink()
            subscriptions.add(primaryLink)
            primaryLink.attach(self.subscribe(Observer(
                value: { downstream.send($0) },
                completion: { completion in
                    switch completion {
                    case .completed:
                        downstream.sendCompleted()
                    case .failed(let error):
                        let fallbackLink = SubscriptionLink()
                        fallback.inner = fallbackLink
                        fallbackLink.attach(handler(error).subscribe(downstream.with(link: fallbackLink)))
                    }
                },
                link: primaryLink
            )))
            return subscriptions
        })
    }
}
