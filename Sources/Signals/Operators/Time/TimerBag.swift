/// Pending timers of one operator subscription, cancelled together when it ends, and forgotten
/// one by one as they fire (so a long-lived subscription does not accumulate them).
@usableFromInline
final class TimerBag: Disposable {
    private struct State {
        var nextID = 0
        /// The timers not fired yet. A slot is taken (`nil` handle) before the timer is
        /// scheduled, so a timer that fires inside `schedule` (an immediate scheduler, or one on
        /// another thread that is quick) finds and frees its slot, and its handle is then
        /// dropped instead of stored for good.
        var timers: [Int: (any Disposable)?]? = [:]
    }

    private let state = Locked(State())

    @usableFromInline
    init() {}

    /// How many timers the bag holds (pending, or being scheduled): for tests.
    var count: Int { state.withLock { $0.timers?.count ?? 0 } }

    /// Schedules `action` after `delay`; it is dropped from the bag when it runs.
    @usableFromInline
    func schedule(after delay: Duration, on scheduler: some Scheduler, _ action: @escaping @Sendable () -> Void) {
        let id = state.withLock { state -> Int? in
            guard state.timers != nil else { return nil }
            state.nextID += 1
            state.timers![state.nextID] = .some(nil)
            return state.nextID
        }
        guard let id else { return }
        let timer = scheduler.schedule(after: delay) { [self] in
            // The fired timer is returned, so it is released after unlocking.
            _ = state.withLock { $0.timers?.removeValue(forKey: id) }
            action()
        }
        let stored = state.withLock { state -> Bool in
            // Gone: the bag was disposed, or the timer already fired.
            guard state.timers?[id] != nil else { return false }
            state.timers![id] = .some(timer)
            return true
        }
        if !stored { timer.dispose() }
    }

    @usableFromInline
    func dispose() {
        let timers = state.withLock { state -> [any Disposable] in
            defer { state.timers = nil }
            return (state.timers ?? [:]).values.compactMap { $0 }
        }
        for timer in timers { timer.dispose() }
    }
}
