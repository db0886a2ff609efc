@usableFromInline
struct SwitchState {
    @usableFromInline var generation = 0
    @usableFromInline var innerActive = false
    @usableFromInline var outerFinished = false
    /// The current inner subscription's link, replaced (and the previous one disposed) in the
    /// box's turn, like the rest of the state: no lock and no existential per switch.
    @usableFromInline var current: SubscriptionLink?

    @inlinable
    init() {}
}

/// One inner subscription of `switchToLatest`: its link (which the switch disposes when the next
/// inner stream arrives) and what its observer needs, the operator's box and which inner stream
/// this is. It holds the box until the inner subscription ends, as the observer's closures did.
@usableFromInline
final class SwitchInner<Inner: Sendable, Failure: Error>: SubscriptionLink, @unchecked Sendable {
    // SAFETY: both stored properties are immutable; the box is thread-safe.
    @usableFromInline let box: SerialBox<SwitchState, Inner, Failure>
    @usableFromInline let generation: Int

    @usableFromInline
    init(box: SerialBox<SwitchState, Inner, Failure>, generation: Int) {
        self.box = box
        self.generation = generation
        super.init()
    }
}

extension Signal {
    /// Mirrors the latest inner stream: each new inner stream replaces the previous one, which
    /// is disposed (seed 002's `switchToLatest`).
    ///
    /// ```text
    /// self:            -x---y---|
    /// x:                -a-b-c
    /// y:                    -1-2-|
    /// switchToLatest:  --a-b-1-2-|
    /// ```
    ///
    /// (In the diagram the inner streams start when they are emitted.) Completes when the outer
    /// stream and the current inner stream have completed; fails when either fails. A value from
    /// a replaced inner stream never arrives after the switch.
    @inlinable
    public func switchToLatest<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure>(unchecked: { downstream in
            typealias Box = SerialBox<SwitchState, Inner, Failure>
            let box = Box(downstream, state: SwitchState())
            // When the output ends (finished, in the turn; or disposed, from anywhere), the
            // current inner subscription is disposed in the box's turn.
            box.resources.add(AnyDisposable {
                box.queue.run {
                    let current = box.state.current
                    box.state.current = nil
                    current?.dispose()
                }
            })
            box.attach(self, value: { box, inner in
                box.state.generation += 1
                box.state.innerActive = true
                // One object is the inner subscription's link and its closures' only capture,
                // so the closures need no contexts of their own.
                let link = SwitchInner(box: box, generation: box.state.generation)
                let previous = box.state.current
                box.state.current = link
                previous?.dispose()
                link.attach(inner.subscribe(Observer(
                    value: { [link] value in
                        link.box.perform((link.generation, value)) { box, input in
                            if box.state.generation == input.0 { box.emit(input.1) }
                        }
                    },
                    completion: { [link] completion in
                        link.box.perform((link.generation, completion)) { box, input in
                            guard box.state.generation == input.0 else { return }
                            switch input.1 {
                            case .failed: box.finish(input.1)
                            case .completed:
                                box.state.innerActive = false
                                if box.state.outerFinished { box.finish(.completed) }
                            }
                        }
                    },
                    link: link
                )))
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed:
                    box.state.outerFinished = true
                    if !box.state.innerActive { box.finish(.completed) }
                }
            })
            return box
        })
    }

    /// Maps each value to a stream and mirrors only the latest one, disposing the previous
    /// (RxSwift's `flatMapLatest`): the search-as-you-type operator, where a slow answer to an
    /// old query never overwrites a newer one.
    ///
    /// ```text
    /// self:           -a---b---|
    /// flatMapLatest:  --A---B--|
    /// ```
    ///
    /// (In the diagram each value maps to a stream that emits its capital one tick later, then
    /// completes a tick after that.)
    public func flatMapLatest<NewValue>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        map(transform).switchToLatest()
    }
}
