extension Signal where Value == Int, Failure == Never {
    /// Emits 0, 1, 2, … every `period` on `scheduler`, forever.
    ///
    /// ```text
    /// interval:  --0-1-2-3
    /// ```
    ///
    /// (`interval(2 ticks)` in the diagram.) Each tick is scheduled from the previous one's due
    /// time, so the period does not drift. Dispose the subscription to stop it.
    public static func interval(_ period: Duration, on scheduler: some Scheduler) -> Signal {
        timer(after: period, period: period, on: scheduler)
    }

    /// Emits 0 after `delay` on `scheduler`, then completes; with a `period`, emits 1, 2, …
    /// every `period` after that instead of completing.
    ///
    /// ```text
    /// timer:  ---[0|]
    /// ```
    ///
    /// (`timer(after: 3 ticks)` in the diagram.)
    public static func timer(after delay: Duration, period: Duration? = nil, on scheduler: some Scheduler) -> Signal {
        Signal({ observer in
            guard let period else {
                return scheduler.schedule(after: delay) {
                    observer.send(0)
                    observer.sendCompleted()
                }
            }
            let count = Locked(0)
            return scheduler.schedule(after: delay, every: period) {
                let value = count.withLock { count -> Int in
                    defer { count += 1 }
                    return count
                }
                observer.send(value)
            }
        })
    }
}
