extension Signal {
    /// On failure, subscribes again, at most `count` times after the first failure; the last
    /// failure is forwarded. `retry(upTo: 0)` is the stream itself.
    ///
    /// ```text
    /// self:         -a-#
    /// retry(upTo):  -a--a--a-#
    /// ```
    ///
    /// (`retry(upTo: 2)` in the diagram: one subscription, then two more, three in all.)
    /// `count` counts re-subscriptions, as ReactiveSwift's `retry(upTo:)` does; RxSwift's
    /// `retry(n)` counts subscriptions in all, so it is `retry(upTo: n - 1)` here. Values of
    /// failed attempts are kept. A source that fails synchronously is retried in a loop, not by
    /// recursion. Disposing stops the current attempt and starts no other.
    public func retry(upTo count: Int) -> Signal {
        precondition(count >= 0, "retry(upTo:): count must not be negative")
        return Signal(unchecked: { downstream in
            let current = SerialDisposable()
            downstream.link?.attach(current)
            let state = Locked(RetryState())

            @Sendable func start() {
                let mustRun = state.withLock { state -> Bool in
                    if state.isSubscribing {
                        state.again = true
                        return false
                    }
                    state.isSubscribing = true
                    return true
                }
                guard mustRun else { return }
                repeat {
                    if current.isDisposed { break }
                    let link = SubscriptionLink()
                    current.inner = link
                    link.attach(self.subscribe(Observer(
                        value: { downstream.send($0) },
                        completion: { completion in
                            if case .failed = completion,
                               state.withLock({ state -> Bool in
                                   state.failures += 1
                                   return state.failures <= count
                               }) {
                                start()
                            } else {
                                downstream.send(completion: completion)
                            }
                        },
                        link: link
                    )))
                } while state.withLock({ state -> Bool in
                    if state.again {
                        state.again = false
                        return true
                    }
                    state.isSubscribing = false
                    return false
                })
            }
            start()
            return current
        })
    }
}

/// Attempts made so far, and the trampoline that turns synchronous failures into a loop.
struct RetryState: Sendable {
    var failures = 0
    var isSubscribing = false
    var again = false
}
