import Dispatch
import Synchronization

/// Runs actions one at a time, in order, on a Dispatch serial queue, in real time.
public final class SerialQueueScheduler: Scheduler {
    /// The queue actions run on.
    public let queue: DispatchQueue

    /// Creates a scheduler on a new serial queue.
    public convenience init(label: String = "Signals.SerialQueueScheduler", qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// Creates a scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public var now: SchedulerInstant { Self.uptime() }

    static func uptime() -> SchedulerInstant {
        SchedulerInstant(sinceEpoch: .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds)))
    }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancelled = CancellationFlag()
        let nanoseconds = max(0, delay.components.seconds) * 1_000_000_000
            + max(0, delay.components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
            if !cancelled.isDisposed { action() }
        }
        return cancelled
    }
}

/// A disposable that only records that it was disposed.
final class CancellationFlag: Disposable {
    private let flag = Atomic<Bool>(false)
    var isDisposed: Bool { flag.load(ordering: .acquiring) }
    func dispose() { flag.store(true, ordering: .releasing) }
}
