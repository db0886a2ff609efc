@usableFromInline
struct RetryWhenState {
    /// Whether this stream has been subscribed at least once.
    var started = false
    /// Whether an attempt is subscribed and has not failed.
    var running = false
    /// The trigger completed while an attempt was running: that attempt still runs, and its
    /// failure completes the output.
    var triggerCompleted = false
}

extension Signal {
    /// On failure, lets `handler` decide whether and when to subscribe again (RxSwift's
    /// `retry(when:)`): `handler` gets this stream's failures as a stream and returns a trigger;
    /// each trigger value subscribes again, and the trigger's failure fails the output. The
    /// trigger's completion means "no more retries": it completes the output at once if no
    /// attempt is running, and otherwise lets the running one (which its last value may just have
    /// started) go on; that attempt's completion or failure then completes the output. So
    /// `failures.prefix(3)` retries three times, as in RxSwift.
    ///
    /// ```text
    /// self:         -a#
    /// retry(when):  -a---a---a|
    /// ```
    ///
    /// (`retry(when: { $0.delay(for: 2 ticks, on: scheduler).prefix(2) })` in the diagram: each
    /// failure retries two ticks later; the trigger completes with its second value, whose
    /// retry still runs, and that retry's failure completes the output.) The output's failure
    /// type is the trigger's: a failure of this stream never reaches downstream by itself, so
    /// the handler decides what to fail with (`Never` if it never gives up).
    ///
    /// Exponential back-off, giving up with the fourth failure:
    ///
    /// ```swift
    /// let resilient = request.retry(when: { failures in
    ///     failures
    ///         .scan((attempt: 0, failure: APIError?.none)) { state, failure in (state.attempt + 1, failure) }
    ///         .setFailureType(to: APIError.self)
    ///         .flatMap { state -> Signal<Int, APIError> in
    ///             state.attempt > 3
    ///                 ? .fail(state.failure!)                                        // give up with it
    ///                 : .just(state.attempt).delay(for: .seconds(1 << state.attempt), on: scheduler)
    ///         }                                                                      // 2 s, 4 s, 8 s
    /// })
    /// ```
    ///
    /// `handler` runs once per subscription, and the trigger is subscribed before this stream.
    /// A trigger value while this stream is still subscribed disposes that attempt and starts
    /// another. Values of failed attempts are kept. A stream that fails synchronously with a
    /// trigger that answers synchronously is retried in a loop, not by recursion. Disposing
    /// stops the current attempt and the trigger.
    public func retry<Trigger, TriggerFailure>(
        when handler: @escaping @Sendable (Signal<Failure, Never>) -> Signal<Trigger, TriggerFailure>
    ) -> Signal<Value, TriggerFailure> {
        Signal<Value, TriggerFailure>(unchecked: { downstream in
            typealias Box = SerialBox<RetryWhenState, Value, TriggerFailure>
            let box = Box(downstream, state: RetryWhenState())
            let failures = PublishSubject<Failure, Never>()
            let current = SerialDisposable()
            box.resources.add(current)

            /// Subscribes to this stream in place of the previous attempt, in the owner turn.
            @Sendable func attempt(_ box: Box) {
                box.state.started = true
                box.state.running = true
                let link = SubscriptionLink()
                current.inner = link
                link.attach(self.subscribe(Observer(
                    value: { value in box.perform(value) { box, value in box.emit(value) } },
                    completion: { completion in
                        box.perform(completion) { box, completion in
                            switch completion {
                            case .completed: box.finish(.completed)
                            case .failed(let failure):
                                box.state.running = false
                                // The trigger is done: this was the last retry.
                                if box.state.triggerCompleted { box.finish(.completed); return }
                                // The trigger's answer, if synchronous, is queued behind this job.
                                failures.send(failure)
                            }
                        }
                    },
                    link: link
                )))
            }

            box.perform(()) { box, _ in
                box.attach(handler(failures.signal), value: { box, _ in
                    attempt(box)
                }, completion: { box, completion in
                    if case .completed = completion, box.state.running {
                        box.state.triggerCompleted = true
                    } else {
                        box.finish(completion)
                    }
                })
                // Behind a trigger event that came during `attach`: a trigger that completes at
                // once completes without subscribing, one that emits at once subscribes once.
                box.queue.run { if !box.isStopped && !box.state.started { attempt(box) } }
            }
            return box
        })
    }
}
