/// A scheduler whose clock moves only when its owner says so: time-based operators run in
/// virtual time, instantly and deterministically.
///
/// Use it where an app needs time that does not pass by itself: a command-line run over offline
/// data that should not sleep through its debounces, a replay, a simulation. Tests usually want
/// `SignalsTesting`'s `TestScheduler`, which is this clock plus marble diagrams.
///
/// ```swift
/// let clock = VirtualTimeScheduler()
/// query.debounce(for: .seconds(1), on: clock).sink { print($0) }
/// clock.advance(by: .seconds(1))      // the debounced value is printed now
/// ```
///
/// Actions due at the same instant run in the order they were scheduled (FIFO). Actions run
/// with no lock held, on the thread that advances the clock, and may schedule more actions;
/// those due within the advanced span run in the same call.
public final class VirtualTimeScheduler: Scheduler {
    private struct Job {
        var due: SchedulerInstant
        var sequence: Int
        var action: @Sendable () -> Void
    }

    private struct State {
        var now = SchedulerInstant.zero
        var nextSequence = 0
        var jobs: [Job] = []
    }

    private let state = Locked(State())

    /// Creates a clock at virtual time zero.
    public init() {}

    /// The virtual time.
    public var now: SchedulerInstant {
        state.withLock { $0.now }
    }

    /// How many actions are waiting.
    public var pendingActionCount: Int {
        state.withLock { $0.jobs.count }
    }

    /// Schedules `action` at the current virtual time; it runs at the next `advance` or `run`.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        _ = insert(after: .zero, action)
    }

    /// Schedules `action` after `delay` of virtual time; disposing the result removes it.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let sequence = insert(after: delay, action)
        return AnyDisposable { [weak self] in
            // The removed jobs are returned, so their actions are released after unlocking.
            _ = self?.state.withLock { state -> [Job] in
                let removed = state.jobs.filter { $0.sequence == sequence }
                state.jobs.removeAll { $0.sequence == sequence }
                return removed
            }
        }
    }

    /// Removes every pending action without running it, and returns how many there were.
    ///
    /// Call it when the clock's work is over with streams still waiting on virtual time (a
    /// request that was never answered, a timer that never fired): a pending action usually
    /// captures something that holds this scheduler (a service, a view model), so the scheduler
    /// and everything reachable from its actions would otherwise stay alive for good.
    @discardableResult
    public func cancelAll() -> Int {
        // The actions are returned and released after unlocking (their deinits are user code).
        let removed = state.withLock { state -> [Job] in
            defer { state.jobs = [] }
            return state.jobs
        }
        return removed.count
    }

    private func insert(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state -> Int in
            let job = Job(due: state.now + max(.zero, delay), sequence: state.nextSequence, action: action)
            state.nextSequence += 1
            // Keep jobs sorted by (due, sequence): insert after every job due at or before.
            var low = 0
            var high = state.jobs.count
            while low < high {
                let mid = (low + high) / 2
                if state.jobs[mid].due <= job.due { low = mid + 1 } else { high = mid }
            }
            state.jobs.insert(job, at: low)
            return job.sequence
        }
    }

    /// Moves the clock forward by `duration`, running every action due by then, in order.
    public func advance(by duration: Duration = .zero) {
        precondition(duration >= .zero, "VirtualTimeScheduler: cannot move back in time")
        advance(to: now + duration)
    }

    /// Moves the clock to `instant`, running every action due by then, in order.
    public func advance(to instant: SchedulerInstant) {
        while let job = popJob(dueBy: instant) {
            job.action()
        }
        state.withLock { state in
            if state.now < instant { state.now = instant }
        }
    }

    /// Runs every scheduled action, moving the clock to each one's time, until none is left.
    ///
    /// A repeating timer never lets the queue empty: `run()` stops it with a precondition
    /// failure after `maxActions` actions; use `advance(by:)` for such work.
    public func run(maxActions: Int = 1_000_000) {
        var count = 0
        while let job = popJob(dueBy: nil) {
            count += 1
            precondition(count <= maxActions, "VirtualTimeScheduler.run(): more than \(maxActions) actions; a repeating timer? Use advance(by:) instead")
            job.action()
        }
    }

    private func popJob(dueBy limit: SchedulerInstant?) -> Job? {
        state.withLock { state -> Job? in
            guard let first = state.jobs.first else { return nil }
            if let limit, first.due > limit { return nil }
            state.jobs.removeFirst()
            if state.now < first.due { state.now = first.due }
            return first
        }
    }
}
