/// Runs every action at once, on the calling thread.
///
/// Delayed actions also run at once: this scheduler has no notion of waiting (like Combine's
/// `ImmediateScheduler`). Use ``SerialQueueScheduler`` for real time and the test kit's
/// `TestScheduler` for virtual time.
public struct ImmediateScheduler: Scheduler {
    public init() {}

    /// The shared instance.
    public static let shared = ImmediateScheduler()

    public var now: SchedulerInstant { SerialQueueScheduler.uptime() }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        action()
    }

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return NopDisposable()
    }
}
