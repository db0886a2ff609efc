extension Signal {
    /// Turns every event, terminal ones included, into a value; the result never fails and
    /// completes after the source's terminal event.
    ///
    /// ```text
    /// self:         -a-#
    /// materialize:  -a-[(#)|]
    /// ```
    ///
    /// (In the diagram the output's `a` is `.value(a)` and its `(#)`, a value, is
    /// `.failed(error)`; the `|` after it is the result's own completion.)
    public func materialize() -> Signal<Event<Value, Failure>, Never> {
        Signal<Event<Value, Failure>, Never>(unchecked: { downstream in
            self.subscribe(Observer(
                value: { value in downstream.send(.value(value)) },
                completion: { completion in
                    downstream.send(Event(completion))
                    downstream.sendCompleted()
                },
                link: downstream.link
            ))
        })
    }
}

extension Signal where Failure == Never {
    /// Turns a stream of events back into the events themselves; the inverse of
    /// `materialize()`.
    ///
    /// ```text
    /// self:           -a-[(#)|]
    /// dematerialize:  -a-#
    /// ```
    ///
    /// The first terminal event ends the result; later events are ignored.
    public func dematerialize<InnerValue, InnerFailure>() -> Signal<InnerValue, InnerFailure>
    where Value == Event<InnerValue, InnerFailure> {
        lift { (output: ProducerSubscription<InnerValue, InnerFailure>) in
            Observer(
                value: { event in
                    switch event {
                    case .value(let value): output.receive(value)
                    case .completed: output.receive(.completed)
                    case .failed(let error): output.receive(.failed(error))
                    }
                },
                completion: { _ in output.receive(.completed) }
            )
        }
    }
}
