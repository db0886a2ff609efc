@usableFromInline
struct ConcatState<Value: Sendable, Failure: Error> {
    var remaining: ArraySlice<Signal<Value, Failure>>
    var current: SerialDisposable?
}

extension Signal {
    /// Emits every value of `signals` in order: each stream is subscribed once the previous one
    /// has completed.
    ///
    /// ```text
    /// a:       -a-|
    /// b:       -1-2-|
    /// concat:  -a--1-2-|
    /// ```
    ///
    /// Fails as soon as the current stream fails. An empty array completes at once.
    public static func concat(_ signals: [Signal]) -> Signal {
        if signals.isEmpty { return .empty }
        return Signal(unchecked: { downstream in
            typealias Box = SerialBox<ConcatState<Value, Failure>, Value, Failure>
            let box = Box(downstream, state: ConcatState(remaining: signals[...]))
            let current = SerialDisposable()
            box.resources.add(current)
            // Subscribing to the next stream happens in the owner turn, so a stream that
            // completes synchronously hands over to the next one in a loop, not by recursion.
            @Sendable func next(_ box: Box) {
                guard let signal = box.state.remaining.popFirst() else {
                    box.finish(.completed)
                    return
                }
                let link = SubscriptionLink()
                current.inner = link
                link.attach(signal.subscribe(Observer(
                    value: { value in box.perform(value) { box, value in box.emit(value) } },
                    completion: { completion in
                        box.perform(completion) { box, completion in
                            switch completion {
                            case .failed: box.finish(completion)
                            case .completed: box.queue.run { if !box.isStopped { next(box) } }
                            }
                        }
                    },
                    link: link
                )))
            }
            box.perform(()) { box, _ in next(box) }
            return box
        })
    }

    /// Emits this stream's values, then `other`'s once this one has completed.
    public func concat(_ other: Signal) -> Signal {
        .concat([self, other])
    }

    /// Emits `values` first, then this stream's values (RxSwift's `startWith`).
    ///
    /// ```text
    /// self:     -a-|
    /// prepend:  [xy]a-|
    /// ```
    ///
    /// (`prepend("x", "y")` in the diagram.)
    public func prepend(_ values: Value...) -> Signal {
        .concat([Signal(sequence: values), self])
    }

    /// Emits `other`'s values first, then this stream's.
    public func prepend(_ other: Signal) -> Signal {
        .concat([other, self])
    }

    /// Emits this stream's values, then `values`, then completes.
    ///
    /// ```text
    /// self:    -a-|
    /// append:  -a-[xy|]
    /// ```
    ///
    /// (`append("x", "y")` in the diagram.)
    public func append(_ values: Value...) -> Signal {
        .concat([self, Signal(sequence: values)])
    }
}
