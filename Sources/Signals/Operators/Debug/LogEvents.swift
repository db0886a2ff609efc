extension Signal {
    /// Logs every event with `name`: subscription, each value, completion or failure, and
    /// disposal (seed 000's `logAll`, RxSwift's `debug`).
    ///
    /// ```text
    /// self:       -a-|
    /// logEvents:  -a-|
    /// ```
    ///
    /// The lines read `search: subscribed`, `search: value(a)`, `search: completed`,
    /// `search: failed(…)` and `search: disposed`. They go to standard output unless `log` says
    /// otherwise.
    public func logEvents(_ name: String, to log: @escaping @Sendable (String) -> Void = { print($0) }) -> Signal {
        handleEvents(
            onSubscribe: { log("\(name): subscribed") },
            onValue: { log("\(name): value(\($0))") },
            onCompletion: { completion in
                switch completion {
                case .completed: log("\(name): completed")
                case .failed(let error): log("\(name): failed(\(error))")
                }
            },
            onDispose: { log("\(name): disposed") }
        )
    }
}
