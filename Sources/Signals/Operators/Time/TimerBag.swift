/// Pending timers of one operator subscription, cancelled together when it ends, and forgotten
/// one by one as they fire (so a long-lived subscription does not accumulate them).
@usableFromInline
final class TimerBag: Disposable {
    private struct State {
        var nextID = 0
        var timers: [Int: any Disposable]? = [:]
    }

    private let state = Locked(State())

    @usableFromInline
    init() {}

    /// Schedules `action` after `delay`; it is dropped from the bag when it runs.
    @usableFromInline
    func schedule(after delay: Duration, on scheduler: some Scheduler, _ action: @escaping @Sendable () -> Void) {
        let id = state.withLock { state -> Int? in
            guard state.timers != nil else { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let timer = scheduler.schedule(after: delay) { [self] in
            // The fired timer is returned, so it is released after unlocking.
            _ = state.withLock { $0.timers?.removeValue(forKey: id) }
            action()
        }
        let rejected = state.withLock { state -> Bool in
            guard state.timers != nil else { return true }
            state.timers![id] = timer
            return false
        }
        if rejected { timer.dispose() }
    }

    @usableFromInline
    func dispose() {
        let timers = state.withLock { state -> [any Disposable] in
            defer { state.timers = nil }
            return Array((state.timers ?? [:]).values)
        }
        for timer in timers { timer.dispose() }
    }
}
