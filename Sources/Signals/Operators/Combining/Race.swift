@usableFromInline
struct RaceState {
    var winner: Int?
}

extension Signal {
    /// Mirrors whichever stream sends an event first and disposes the others (RxSwift's `amb`).
    ///
    /// ```text
    /// a:     ---a-b-|
    /// b:     --1-2-|
    /// race:  --1-2-|
    /// ```
    ///
    /// A completion or failure also counts as the first event. An empty array completes at
    /// once.
    public static func race(_ signals: [Signal]) -> Signal {
        if signals.isEmpty { return .empty }
        return Signal(unchecked: { downstream in
            typealias Box = SerialBox<RaceState, Value, Failure>
            let box = Box(downstream, state: RaceState())
            var links: [SubscriptionLink] = []
            let allLinks = Locked<[SubscriptionLink]>([])
            @Sendable func claim(_ box: Box, _ index: Int) -> Bool {
                if let winner = box.state.winner { return winner == index }
                box.state.winner = index
                for (other, link) in allLinks.value.enumerated() where other != index { link.dispose() }
                return true
            }
            for (index, signal) in signals.enumerated() {
                links.append(box.attach(signal, value: { box, value in
                    if claim(box, index) { box.emit(value) }
                }, completion: { box, completion in
                    if claim(box, index) { box.finish(completion) }
                }))
                allLinks.withLock { $0 = links }
                if box.isStopped { break }
            }
            // A loser that won before the later links existed is disposed now.
            box.perform(()) { box, _ in
                if let winner = box.state.winner {
                    for (other, link) in allLinks.value.enumerated() where other != winner { link.dispose() }
                }
            }
            return box
        })
    }

    /// Mirrors this stream or `other`, whichever sends an event first.
    public func race(_ other: Signal) -> Signal {
        .race([self, other])
    }
}
