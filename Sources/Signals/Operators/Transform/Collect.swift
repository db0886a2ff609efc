extension Signal {
    /// Collects every value into an array, emitted once the stream completes (RxSwift's
    /// `toArray`).
    ///
    /// ```text
    /// self:     -a-b-c-|
    /// collect:  -------[(abc)|]
    /// ```
    ///
    /// An empty stream emits `[]`. On failure only the failure is forwarded.
    public func collect() -> Signal<[Value], Failure> {
        reduce([Value]()) { array, value in
            var array = array
            array.append(value)
            return array
        }
    }
}
