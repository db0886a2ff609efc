extension Signal {
    /// Subscribes to this stream only after `interval` on `scheduler` (RxSwift's
    /// `delaySubscription`): everything it does, failures included, happens that much later.
    ///
    /// ```text
    /// self:               a-#
    /// delaySubscription:  --a-#
    /// ```
    ///
    /// (`delaySubscription(for: 2 ticks)` in the diagram.) Disposing before then cancels the
    /// subscription, which never happens. Offline services use it to answer after a latency.
    public func delaySubscription(for interval: Duration, on scheduler: some Scheduler) -> Signal {
        Signal(unchecked: { downstream in
            let current = SerialDisposable()
            downstream.link?.attach(current)
            current.inner = scheduler.schedule(after: interval) {
                if current.isDisposed { return }
                let link = SubscriptionLink()
                current.inner = link
                link.attach(self.subscribe(downstream.with(link: link)))
            }
            return current
        })
    }
}
