import Synchronization

extension Signal {
    /// Runs side effects on each event without changing the stream (RxSwift's `do`).
    ///
    /// ```text
    /// self:          -a-b-|
    /// handleEvents:  -a-b-|
    /// ```
    ///
    /// `onSubscribe` runs before the source is subscribed; `onValue` and `onCompletion` run
    /// before the event is passed on; `onDispose` runs when the subscription is disposed before
    /// it ended (not after a terminal event).
    public func handleEvents(
        onSubscribe: (@Sendable () -> Void)? = nil,
        onValue: (@Sendable (Value) -> Void)? = nil,
        onCompletion: (@Sendable (Completion<Failure>) -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Signal {
        Signal(unchecked: { downstream in
            onSubscribe?()
            let endedFlag = EndedFlag()
            let upstream = self.subscribe(Observer(
                value: { value in
                    onValue?(value)
                    downstream.send(value)
                },
                completion: { completion in
                    endedFlag.end()
                    onCompletion?(completion)
                    downstream.send(completion: completion)
                },
                link: downstream.link
            ))
            guard let onDispose else { return upstream }
            return AnyDisposable {
                if endedFlag.end() { onDispose() }
                upstream.dispose()
            }
        })
    }
}

/// Records that a subscription ended, once.
final class EndedFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Marks the end; returns `true` for the first caller.
    @discardableResult
    func end() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}
