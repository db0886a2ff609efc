@usableFromInline
struct FlatMapState<Value: Sendable, NewValue: Sendable, Failure: Error> {
    var active = 0
    var waiting: [Value] = []
    var outerFinished = false
    var nextID = 0
    var inners: [Int: SubscriptionLink] = [:]
}

extension Signal {
    /// Maps each value to a stream and merges the values of all of them, with at most
    /// `maxConcurrent` inner streams subscribed at once (the others wait, in order).
    ///
    /// ```text
    /// self:     -a-b----|
    /// flatMap:  --A-[aB]-b-|
    /// ```
    ///
    /// (In the diagram each value x maps to a stream that emits X after one tick and x after
    /// three, then completes a tick later.) Completes when the outer stream and every inner stream have
    /// completed; fails as soon as any fails.
    public func flatMap<NewValue>(
        maxConcurrent: Int = .max,
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        precondition(maxConcurrent > 0, "flatMap: maxConcurrent must be at least 1")
        return Signal<NewValue, Failure>(unchecked: { downstream in
            typealias Box = SerialBox<FlatMapState<Value, NewValue, Failure>, NewValue, Failure>
            let box = Box(downstream, state: FlatMapState())
            box.resources.add(AnyDisposable {
                // Runs on disposal, from any thread: dispose what is subscribed now.
                box.queue.run {
                    let inners = box.state.inners.values
                    box.state.inners = [:]
                    for link in inners { link.dispose() }
                }
            })

            @Sendable func start(_ box: Box, _ value: Value) {
                box.state.active += 1
                box.state.nextID += 1
                let id = box.state.nextID
                let link = SubscriptionLink()
                box.state.inners[id] = link
                link.attach(transform(value).subscribe(Observer(
                    value: { value in box.perform(value) { box, value in box.emit(value) } },
                    completion: { completion in
                        box.perform((id, completion)) { box, input in
                            switch input.1 {
                            case .failed: box.finish(input.1)
                            case .completed:
                                box.state.inners[input.0] = nil
                                box.state.active -= 1
                                if !box.state.waiting.isEmpty {
                                    start(box, box.state.waiting.removeFirst())
                                } else if box.state.active == 0 && box.state.outerFinished {
                                    box.finish(.completed)
                                }
                            }
                        }
                    },
                    link: link
                )))
            }

            box.attach(self, value: { box, value in
                if box.state.active < maxConcurrent {
                    start(box, value)
                } else {
                    box.state.waiting.append(value)
                }
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed:
                    box.state.outerFinished = true
                    if box.state.active == 0 && box.state.waiting.isEmpty { box.finish(.completed) }
                }
            })
            return box
        })
    }

    /// Maps each value to a stream and emits their values one stream after another: the next
    /// is subscribed when the previous completes (`flatMap(maxConcurrent: 1)`).
    ///
    /// ```text
    /// self:       -a-b----|
    /// concatMap:  --A-a-B-b|
    /// ```
    ///
    /// (Same inner streams as in `flatMap`'s diagram.)
    public func concatMap<NewValue>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(maxConcurrent: 1, transform)
    }
}
