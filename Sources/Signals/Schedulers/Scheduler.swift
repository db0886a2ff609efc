/// A point in a scheduler's time: a monotonic offset from the scheduler's own epoch.
///
/// Real schedulers count from the machine's uptime; a virtual-time scheduler counts from zero.
public struct SchedulerInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Time since the scheduler's epoch.
    public var sinceEpoch: Duration

    public init(sinceEpoch: Duration) {
        self.sinceEpoch = sinceEpoch
    }

    /// The scheduler's epoch.
    public static var zero: SchedulerInstant { SchedulerInstant(sinceEpoch: .zero) }

    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        lhs.sinceEpoch < rhs.sinceEpoch
    }

    public static func + (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(sinceEpoch: lhs.sinceEpoch + rhs)
    }

    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        lhs.sinceEpoch - rhs.sinceEpoch
    }

    public var description: String { "\(sinceEpoch)" }
}

/// Decides where and when work runs: at once, on a serial queue, on the main actor, or in
/// virtual time under a test's control.
///
/// Every time-based operator takes a scheduler, so tests can run them in virtual time. A
/// scheduler runs the actions it is given in the order they are due, one at a time; actions due
/// at the same instant run in the order they were scheduled.
public protocol Scheduler: Sendable {
    /// The scheduler's current time.
    var now: SchedulerInstant { get }

    /// Runs `action` as soon as possible, after the actions already scheduled.
    func schedule(_ action: @escaping @Sendable () -> Void)

    /// Runs `action` once `delay` has passed. Disposing the result before then cancels it.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable
}

extension Scheduler {
    /// Runs `action` after `delay`, then every `interval`, until the result is disposed.
    ///
    /// Each run is scheduled from the instant the previous one was due, so the period does not
    /// drift with the time the action takes.
    public func schedule(
        after delay: Duration,
        every interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        precondition(interval > .zero, "Scheduler: a repeating interval must be positive")
        let serial = SerialDisposable()
        let start = now + delay
        @Sendable func step(_ index: Int) {
            let due = start + interval * index
            let wait = max(.zero, due - now)
            serial.inner = schedule(after: wait) {
                if serial.isDisposed { return }
                action()
                step(index + 1)
            }
        }
        step(0)
        return serial
    }
}
