import Signals

/// A scheduler whose clock moves only when a test says so: time-based operators run in virtual
/// time, instantly and deterministically.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let recorder = scheduler.record(query.debounce(for: .seconds(1), on: scheduler))
/// scheduler.advance(by: .seconds(1))
/// ```
///
/// Actions due at the same instant run in the order they were scheduled (FIFO). Actions run
/// with no lock held, on the thread that advances the clock, and may schedule more actions;
/// those due within the advanced span run in the same call. The scheduler is `Sendable` and
/// holds no global state, so tests using their own schedulers run in parallel.
public final class TestScheduler: Scheduler {
    /// The virtual clock (the same one an app can use: `Signals.VirtualTimeScheduler`).
    public let clock = VirtualTimeScheduler()
    /// The virtual duration of one marble tick (`-`).
    public let tick: Duration
    let registry = TestSignalRegistry()

    /// Creates a scheduler at virtual time zero; `tick` is the duration one marble character
    /// stands for.
    public init(tick: Duration = .seconds(1)) {
        precondition(tick > .zero, "TestScheduler: tick must be positive")
        self.tick = tick
    }

    /// The virtual time.
    public var now: SchedulerInstant { clock.now }

    /// The virtual time in ticks (rounded down).
    public var nowInTicks: Int {
        Int(now.sinceEpoch / tick)
    }

    /// How many actions are waiting.
    public var pendingActionCount: Int { clock.pendingActionCount }

    /// Schedules `action` at the current virtual time; it runs at the next `advance` or `run`.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        clock.schedule(action)
    }

    /// Schedules `action` after `delay` of virtual time; disposing the result removes it.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        clock.schedule(after: delay, action)
    }

    /// Removes every pending action without running it, and returns how many there were.
    ///
    /// Call it when a test ends with streams still waiting on virtual time (a request that was
    /// never answered, a timer that never fired): a pending action usually captures something
    /// that holds this scheduler (a service, a view model), so the scheduler and everything
    /// reachable from its actions would otherwise stay alive for good, a reference cycle that
    /// LeakSanitizer reports. `defer { scheduler.cancelAll() }` right after creating it.
    @discardableResult
    public func cancelAll() -> Int { clock.cancelAll() }

    /// Schedules `action` at marble tick `tick`, counted from time zero like the ticks of a
    /// diagram (at once, in order, if that time has passed).
    @discardableResult
    public func schedule(atTick tick: Int, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(after: max(.zero, SchedulerInstant(sinceEpoch: self.tick * tick) - now), action)
    }

    /// Moves the clock forward by `duration`, running every action due by then, in order.
    public func advance(by duration: Duration = .zero) {
        precondition(duration >= .zero, "TestScheduler: cannot move back in time")
        clock.advance(by: duration)
    }

    /// Moves the clock forward by `ticks` marble ticks.
    public func advance(ticks: Int) {
        advance(by: tick * ticks)
    }

    /// Moves the clock to `instant`, running every action due by then, in order.
    public func advance(to instant: SchedulerInstant) { clock.advance(to: instant) }

    /// Runs every scheduled action, moving the clock to each one's time, until none is left.
    ///
    /// A repeating timer never lets the queue empty: `run()` stops it with a precondition
    /// failure after `maxActions` actions; use `advance(by:)` for such tests.
    public func run(maxActions: Int = 1_000_000) { clock.run(maxActions: maxActions) }

    /// The marble tick of an instant (rounded down), and whether it falls exactly on a tick.
    func ticks(of instant: SchedulerInstant) -> (tick: Int, exact: Bool) {
        let whole = Int(instant.sinceEpoch / tick)
        return (whole, tick * whole == instant.sinceEpoch)
    }
}
