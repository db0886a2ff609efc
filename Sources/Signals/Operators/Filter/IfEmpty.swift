@usableFromInline
struct IfEmptyState {
    var sawValue = false
}

extension Signal {
    /// Emits this stream's values; if it completes without any, emits `value` and completes
    /// (RxSwift's `ifEmpty(default:)`, Combine's `replaceEmpty(with:)`).
    ///
    /// ```text
    /// self:              ---|
    /// ifEmpty(default):  ---[x|]
    /// ```
    ///
    /// (`ifEmpty(default: "x")` in the diagram.) A stream with values is passed through as it
    /// is; a failure is forwarded, also when no value came before it.
    public func ifEmpty(default value: Value) -> Signal {
        ifEmpty(switchTo: .just(value))
    }

    /// Emits this stream's values; if it completes without any, switches to `other`
    /// (RxSwift's `ifEmpty(switchTo:)`).
    ///
    /// ```text
    /// self:               --|
    /// other:              -x-y-|
    /// ifEmpty(switchTo):  ---x-y-|
    /// ```
    ///
    /// `other` is subscribed only when this stream completes empty, and only then; a failure of
    /// this stream is forwarded and `other` is never subscribed. A stream with values is passed
    /// through as it is. Disposing disposes whichever stream is subscribed.
    public func ifEmpty(switchTo other: Signal) -> Signal {
        Signal(unchecked: { downstream in
            typealias Box = SerialBox<IfEmptyState, Value, Failure>
            let box = Box(downstream, state: IfEmptyState())
            let current = SerialDisposable()
            box.resources.add(current)

            /// Subscribes to `signal` in place of the previous stream, in the owner turn.
            @Sendable func subscribe(_ box: Box, to signal: Signal, isFallback: Bool) {
                let link = SubscriptionLink()
                current.inner = link
                link.attach(signal.subscribe(Observer(
                    value: { value in
                        box.perform(value) { box, value in
                            box.state.sawValue = true
                            box.emit(value)
                        }
                    },
                    completion: { completion in
                        box.perform(completion) { box, completion in
                            if case .completed = completion, !isFallback, !box.state.sawValue {
                                box.queue.run { if !box.isStopped { subscribe(box, to: other, isFallback: true) } }
                            } else {
                                box.finish(completion)
                            }
                        }
                    },
                    link: link
                )))
            }
            box.perform(()) { box, _ in subscribe(box, to: self, isFallback: false) }
            return box
        })
    }
}
