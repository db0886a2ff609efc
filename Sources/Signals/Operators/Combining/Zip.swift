@usableFromInline
struct ZipArrayState<Element: Sendable> {
    var queues: [[Element]]
    var finished: [Bool]
}

extension Signal {
    /// Pairs the values of both streams in order: the first with the first, the second with the
    /// second, and so on.
    ///
    /// ```text
    /// self:   -a-b-----c-|
    /// other:  ---1-2-3---|
    /// zip:    ---(a1)-(b2)---(c3)-|
    /// ```
    ///
    /// (In the diagram `(a1)` is the pair (a, 1).) Unpaired values wait.
    /// Completes once a stream has completed and every value it sent has been paired; fails as
    /// soon as either fails.
    public func zip<Other>(_ other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        Signal<[ZipElement<Value, Other>], Failure>.zip([
            self.map { ZipElement<Value, Other>.first($0) },
            other.map { ZipElement<Value, Other>.second($0) },
        ]).map { pair in
            guard case .first(let a) = pair[0], case .second(let b) = pair[1] else {
                preconditionFailure("zip: inputs out of place")
            }
            return (a, b)
        }
    }

    /// Pairs three streams' values in order.
    public func zip<B, C>(_ b: Signal<B, Failure>, _ c: Signal<C, Failure>) -> Signal<(Value, B, C), Failure> {
        zip(b).zip(c).map { ($0.0, $0.1, $1) }
    }

    /// Zips every stream in `signals`: the n-th values of all, as an array, once each has sent
    /// its n-th value.
    ///
    /// ```text
    /// a:           -a-b---|
    /// b:           ---1-2-|
    /// zip([a, b]):  ---(a1)-(b2)-|
    /// ```
    ///
    /// (In the diagram `(a1)` is the array [a, 1].) An empty array completes at once.
    public static func zip<Element>(_ signals: [Signal<Element, Failure>]) -> Signal<[Element], Failure>
    where Value == [Element] {
        if signals.isEmpty { return .empty }
        return Signal<[Element], Failure>(unchecked: { downstream in
            let count = signals.count
            let box = SerialBox<ZipArrayState<Element>, [Element], Failure>(
                downstream, state: ZipArrayState(queues: Array(repeating: [], count: count), finished: Array(repeating: false, count: count)))
            @Sendable func finishIfExhausted(_ box: SerialBox<ZipArrayState<Element>, [Element], Failure>) {
                for index in 0..<count where box.state.finished[index] && box.state.queues[index].isEmpty {
                    box.finish(.completed)
                    return
                }
            }
            for (index, signal) in signals.enumerated() {
                box.attach(signal, value: { box, value in
                    box.state.queues[index].append(value)
                    if box.state.queues.allSatisfy({ !$0.isEmpty }) {
                        let tuple = (0..<count).map { box.state.queues[$0].removeFirst() }
                        box.emit(tuple)
                        finishIfExhausted(box)
                    }
                }, completion: { box, completion in
                    switch completion {
                    case .failed: box.finish(completion)
                    case .completed:
                        box.state.finished[index] = true
                        finishIfExhausted(box)
                    }
                })
            }
            return box
        })
    }
}

/// One side of a two-input zip, so both travel through the homogeneous array zip.
enum ZipElement<First: Sendable, Second: Sendable>: Sendable {
    case first(First)
    case second(Second)
}
