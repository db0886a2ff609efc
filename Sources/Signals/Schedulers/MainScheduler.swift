import Dispatch
import Synchronization

/// Runs actions on the main thread (the main actor's executor), in order.
///
/// ``shared`` runs an action at once when it is scheduled from the main thread and nothing
/// scheduled earlier is still waiting, so a UI binding set up on the main thread delivers its
/// first value synchronously (RxCocoa's `MainScheduler.instance`). ``async`` always hops
/// through the main queue.
public final class MainScheduler: Scheduler {
    /// Runs inline when already on the main thread with nothing pending; otherwise dispatches.
    public static let shared = MainScheduler(inlineWhenPossible: true)
    /// Always dispatches to the main queue, even from the main thread.
    public static let async = MainScheduler(inlineWhenPossible: false)

    private let inlineWhenPossible: Bool
    private let pending = Atomic<Int>(0)

    /// Creates a main-thread scheduler with its own ordering: actions scheduled through one
    /// instance run in order; separate instances do not wait for each other.
    ///
    /// - Parameter inlineWhenPossible: run at once when scheduled from the main thread with
    ///   nothing of this instance pending (as ``shared`` does); `false` always dispatches.
    public init(inlineWhenPossible: Bool = true) {
        self.inlineWhenPossible = inlineWhenPossible
    }

    /// Whether the caller runs on the main thread (the main queue).
    public static var isMainThread: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Runs `body` on the main actor: at once when called on the main thread, otherwise on the
    /// main queue. Unlike ``schedule(_:)`` it keeps no order with a scheduler's pending actions;
    /// it is for work that must simply happen on the main actor (a binding's setter, a callback
    /// from a background service).
    public static func runOnMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
        if isMainThread {
            MainActor.assumeIsolated { body() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
        }
    }

    public var now: SchedulerInstant { SerialQueueScheduler.uptime() }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        let previous = pending.add(1, ordering: .acquiringAndReleasing).oldValue
        if inlineWhenPossible && previous == 0 && Self.isMainThread {
            action()
            pending.subtract(1, ordering: .acquiringAndReleasing)
            return
        }
        DispatchQueue.main.async { [self] in
            action()
            pending.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        SerialQueueScheduler(queue: .main).schedule(after: delay, action)
    }
}

private let mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()
