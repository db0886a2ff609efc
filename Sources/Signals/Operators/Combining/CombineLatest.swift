/// The state of `combineLatest` over two inputs.
@usableFromInline
struct CombineLatest2State<A: Sendable, B: Sendable> {
    @usableFromInline var a: A?
    @usableFromInline var b: B?
    @usableFromInline var finishedA = false
    @usableFromInline var finishedB = false

    @inlinable init() {}
}

extension Signal {
    /// Emits a pair of the latest values of both streams whenever either emits, once both have
    /// emitted at least once.
    ///
    /// ```text
    /// self:           -a---b---|
    /// other:          ---1---2---|
    /// combineLatest:  ---(a1)-(b1)-(b2)---|
    /// ```
    ///
    /// (In the diagram `(a1)` is the pair (a, 1).) Completes when both
    /// have completed, or at once if one completes without having emitted; fails as soon as
    /// either fails. Pairs leave in the order the inputs arrived, even from several threads.
    @inlinable
    public func combineLatest<Other>(_ other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        typealias Box = SerialBox<CombineLatest2State<Value, Other>, (Value, Other), Failure>
        return Signal<(Value, Other), Failure>(unchecked: { downstream in
            let box = Box(downstream, state: CombineLatest2State())
            box.attach(self, value: { box, value in
                box.state.a = value
                if let b = box.state.b { box.emit((value, b)) }
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed:
                    box.state.finishedA = true
                    if box.state.finishedB || box.state.a == nil { box.finish(.completed) }
                }
            })
            box.attach(other, value: { box, value in
                box.state.b = value
                if let a = box.state.a { box.emit((a, value)) }
            }, completion: { box, completion in
                switch completion {
                case .failed: box.finish(completion)
                case .completed:
                    box.state.finishedB = true
                    if box.state.finishedA || box.state.b == nil { box.finish(.completed) }
                }
            })
            return box
        })
    }

    /// Combines the latest values of both streams with `transform` whenever either emits (seed
    /// 002's `combineLatest:reduce:`).
    ///
    /// ```text
    /// self:              -A-B----C--|
    /// other:             ----1------2-|
    /// combineLatest(+):  ----(B1)---(C1)--(C2)-|
    /// ```
    ///
    /// (In the diagram `transform` joins the two strings: seed 002's letters and numbers.)
    public func combineLatest<Other, Result>(
        _ other: Signal<Other, Failure>,
        _ transform: @escaping @Sendable (Value, Other) -> Result
    ) -> Signal<Result, Failure> {
        combineLatest(other).map(transform)
    }

    /// The latest values of three streams, whenever any emits once all have emitted.
    public func combineLatest<B, C>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>
    ) -> Signal<(Value, B, C), Failure> {
        combineLatest(b).combineLatest(c).map { ($0.0, $0.1, $1) }
    }

    /// The latest values of four streams, whenever any emits once all have emitted.
    public func combineLatest<B, C, D>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>
    ) -> Signal<(Value, B, C, D), Failure> {
        combineLatest(b, c).combineLatest(d).map { ($0.0, $0.1, $0.2, $1) }
    }

    /// The latest values of five streams, whenever any emits once all have emitted.
    public func combineLatest<B, C, D, E>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>, _ e: Signal<E, Failure>
    ) -> Signal<(Value, B, C, D, E), Failure> {
        combineLatest(b, c, d).combineLatest(e).map { ($0.0, $0.1, $0.2, $0.3, $1) }
    }

    /// The latest values of six streams, whenever any emits once all have emitted.
    public func combineLatest<B, C, D, E, F>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>, _ e: Signal<E, Failure>,
        _ f: Signal<F, Failure>
    ) -> Signal<(Value, B, C, D, E, F), Failure> {
        combineLatest(b, c, d, e).combineLatest(f).map { ($0.0, $0.1, $0.2, $0.3, $0.4, $1) }
    }

    /// Combines the latest values of three streams with `transform`.
    public func combineLatest<B, C, Result>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>,
        _ transform: @escaping @Sendable (Value, B, C) -> Result
    ) -> Signal<Result, Failure> {
        combineLatest(b, c).map(transform)
    }

    /// Combines the latest values of four streams with `transform`.
    public func combineLatest<B, C, D, Result>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>,
        _ transform: @escaping @Sendable (Value, B, C, D) -> Result
    ) -> Signal<Result, Failure> {
        combineLatest(b, c, d).map(transform)
    }

    /// Combines the latest values of five streams with `transform`.
    public func combineLatest<B, C, D, E, Result>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>, _ e: Signal<E, Failure>,
        _ transform: @escaping @Sendable (Value, B, C, D, E) -> Result
    ) -> Signal<Result, Failure> {
        combineLatest(b, c, d, e).map(transform)
    }

    /// Combines the latest values of six streams with `transform`.
    public func combineLatest<B, C, D, E, F, Result>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>, _ e: Signal<E, Failure>,
        _ f: Signal<F, Failure>,
        _ transform: @escaping @Sendable (Value, B, C, D, E, F) -> Result
    ) -> Signal<Result, Failure> {
        combineLatest(b, c, d, e, f).map(transform)
    }
}

extension Signal {
    /// Combines the latest values of every stream in `signals` with `transform` (seed 002's
    /// `combineLatest:@[…] reduce:`).
    ///
    /// ```text
    /// a:                        -A-B----C--|
    /// b:                        ----1------2-|
    /// combineLatest([a, b], +):  ----(B1)---(C1)--(C2)-|
    /// ```
    public static func combineLatest<Element>(
        _ signals: [Signal<Element, Failure>],
        _ transform: @escaping @Sendable ([Element]) -> Value
    ) -> Signal {
        Signal<[Element], Failure>.combineLatest(signals).map(transform)
    }
}

/// The state of `combineLatest` over an array of inputs.
@usableFromInline
struct CombineLatestArrayState<Element: Sendable> {
    var values: [Element?]
    var missing: Int
    var unfinished: Int
}

extension Signal {
    /// The latest values of every stream in `signals`, as an array in their order, whenever any
    /// emits once all have emitted (seed 002's `combineLatest:@[…]`).
    ///
    /// ```text
    /// a:                     -a---b-|
    /// b:                     ---1---|
    /// combineLatest([a, b]):  ---(a1)-(b1)-|
    /// ```
    ///
    /// (In the diagram `(a1)` is the array [a, 1].) An empty array completes at once.
    /// Completes when all have completed, or as soon as one completes without having emitted;
    /// fails as soon as one fails.
    public static func combineLatest<Element>(_ signals: [Signal<Element, Failure>]) -> Signal<[Element], Failure>
    where Value == [Element] {
        if signals.isEmpty { return .empty }
        return Signal<[Element], Failure>(unchecked: { downstream in
            let count = signals.count
            let box = SerialBox<CombineLatestArrayState<Element>, [Element], Failure>(
                downstream, state: CombineLatestArrayState(values: Array(repeating: nil, count: count), missing: count, unfinished: count))
            for (index, signal) in signals.enumerated() {
                box.attach(signal, value: { box, value in
                    if box.state.values[index] == nil { box.state.missing -= 1 }
                    box.state.values[index] = value
                    if box.state.missing == 0 { box.emit(box.state.values.map { $0! }) }
                }, completion: { box, completion in
                    switch completion {
                    case .failed: box.finish(completion)
                    case .completed:
                        box.state.unfinished -= 1
                        if box.state.unfinished == 0 || box.state.values[index] == nil { box.finish(.completed) }
                    }
                })
            }
            return box
        })
    }
}

extension Signal {
    /// The latest values of this stream and any number of others, as a tuple in their order,
    /// whenever any emits once all have emitted: RxSwift's `combineLatest` of up to eight and
    /// beyond, without a chain of pairs.
    ///
    /// ```swift
    /// let form = name.signal.combineLatest(email.signal, age.signal, country.signal, city.signal,
    ///                                      street.signal, phone.signal, terms.signal)
    /// // Signal<(String, String, Int, String, String, String, String, Bool), Never>
    /// let canSend = form.map { name, email, age, _, _, _, _, terms in !name.isEmpty && terms }
    /// ```
    ///
    /// Completes when all have completed, or as soon as one completes without having emitted;
    /// fails as soon as one fails (as the two-stream ``combineLatest(_:)``). Up to six streams,
    /// the fixed-arity overloads are chosen; this one takes any count.
    public func combineLatest<each Other: Sendable>(
        _ others: repeat Signal<each Other, Failure>
    ) -> Signal<(Value, repeat each Other), Failure> {
        erasedCombineLatest(repeat each others).map { values in
            var reader = ValuesReader(values)
            return (reader.next(Value.self), repeat reader.next((each Other).self))
        }
    }

    /// `combineLatest` over the streams' values as `any Sendable`, in their order.
    private func erasedCombineLatest<each Other: Sendable>(
        _ others: repeat Signal<each Other, Failure>
    ) -> Signal<[any Sendable], Failure> {
        var erased: [Signal<any Sendable, Failure>] = [map { $0 as any Sendable }]
        for other in repeat each others {
            erased.append(other.map { $0 as any Sendable })
        }
        return Signal<[any Sendable], Failure>.combineLatest(erased)
    }
}

/// Reads back, in order, values erased to `any Sendable`.
struct ValuesReader {
    private let values: [any Sendable]
    private var index = 0

    init(_ values: [any Sendable]) {
        self.values = values
    }

    mutating func next<Element>(_: Element.Type) -> Element {
        defer { index += 1 }
        // SAFETY: the values were erased from streams in the order of their types, and are read
        // back in that order, so the `index`th is an `Element`.
        return values[index] as! Element
    }
}
