import Dispatch
import Signals
import Synchronization

/// Where a page's elements live and its bindings deliver: one session's serial queue, or the
/// main queue (the main actor).
///
/// A server gives each session an executor of its own, so sessions take turns on every core and
/// one busy session does not hold up another (LiveView gives each page a process). An element is
/// used only on the executor it was built on: the executor its bindings deliver on, and the one
/// its session handles the page's messages on. Code that builds elements on the main actor (a
/// test, a session of an app whose view models are `@MainActor`) is on ``main``.
public final class WebExecutor: Sendable {
    /// The queue the executor's work runs on (serial).
    public let queue: DispatchQueue
    /// Whether it is the main queue.
    public let isMain: Bool

    /// The main queue's executor (the main actor's thread).
    public static let main = WebExecutor(main: ())

    private init(main: Void) {
        queue = .main
        isMain = true
        queue.setSpecific(key: Self.key, value: QueueOwner(self))
    }

    /// A new executor on a serial queue of its own, run by the system's pool of threads.
    ///
    /// The queue targets Dispatch's global queue, whose threads are as many as the machine's
    /// cores: sessions take their turns on every core, and a burst of work (a thousand tabs
    /// opened at once) waits for a thread instead of starting one for each session. A session
    /// whose view model keeps its thread busy holds one core; the other sessions take their
    /// turns on the others (on this 2-core machine, their keystrokes' p99 stays under 5 ms
    /// while one session is busy for 2 s). Dispatch's overcommitting pool (a serial queue's
    /// default) would give them a thread of their own even then, but it started 175 threads for
    /// a thousand tabs opened at once, and the memory the allocator spread over them stayed:
    /// 4 KB a tab.
    public init(label: String = "WebUI.session") {
        queue = DispatchQueue(label: label, target: .global())
        isMain = false
        queue.setSpecific(key: Self.key, value: QueueOwner(self))
    }

    /// The executor the caller runs on: a session's while it handles its page, or the main one
    /// on the main thread (the main actor).
    ///
    /// Anywhere else (a detached task, a thread of Swift's pool, a queue of the app's own) it
    /// stops the program with a message that says so: an element built there would belong to no
    /// thread that ever uses it, and its page would be touched from two threads. Build a page's
    /// elements in its session's turn, or on the main actor (a test marked `@MainActor`).
    public static var current: WebExecutor {
        if let owner = DispatchQueue.getSpecific(key: key)?.executor { return owner }
        precondition(MainScheduler.isMainThread, strayThreadMessage)
        return main
    }

    /// What ``current`` says on a thread that is neither a session's executor nor the main thread.
    static let strayThreadMessage = """
        WebExecutor.current was asked on a thread that is neither a session's executor nor the \
        main thread: a page's elements are built in their session's turn or on the main actor \
        (in a test, mark it @MainActor)
        """

    /// Whether the caller runs on this executor.
    public var isCurrent: Bool {
        if isMain { return MainScheduler.isMainThread }
        return DispatchQueue.getSpecific(key: Self.key)?.executor === self
    }

    /// Runs `work` on the executor, after what is already queued.
    public func run(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` after `delay`; returns a disposable that cancels it.
    public func run(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Disposable {
        SerialQueueScheduler(queue: queue).schedule(after: delay, work)
    }

    /// A scheduler for one binding: its values in order, at once when delivered on this executor
    /// with none of them waiting, otherwise queued (as `MainScheduler()` does on the main queue).
    public func scheduler() -> any Scheduler {
        BindingScheduler(executor: self)
    }

    private static let key = DispatchSpecificKey<QueueOwner>()

    /// The executor a queue carries; weak: the queue belongs to it (work still queued after the
    /// executor went finds none).
    private final class QueueOwner: Sendable {
        weak let executor: WebExecutor?
        init(_ executor: WebExecutor) { self.executor = executor }
    }
}

/// Delivery on an executor in order: at once when the caller is already on it with nothing of
/// this deliverer pending, otherwise queued there (as `MainScheduler()` does on the main queue).
/// A binding's scheduler, and the base of an element's subscriptions (one object apiece).
class InOrderDelivery: @unchecked Sendable {
    // SAFETY: `executor` is immutable and `pending` atomic; subclasses guard their own state.
    let executor: WebExecutor
    private let pending = Atomic<Int>(0)

    init(executor: WebExecutor) {
        self.executor = executor
    }

    /// Runs `action` on the executor, after what this deliverer has pending.
    final func deliver(_ action: @escaping @Sendable () -> Void) {
        let previous = pending.add(1, ordering: .acquiringAndReleasing).oldValue
        if previous == 0 && executor.isCurrent {
            action()
            pending.subtract(1, ordering: .acquiringAndReleasing)
            return
        }
        executor.queue.async { [self] in
            action()
            pending.subtract(1, ordering: .acquiringAndReleasing)
        }
    }
}

/// One binding's delivery on an executor, as a ``Scheduler``.
private final class BindingScheduler: InOrderDelivery, Scheduler, @unchecked Sendable {
    // SAFETY: no state of its own beyond `InOrderDelivery`'s (immutable, or atomic).
    var now: SchedulerInstant { SerialQueueScheduler(queue: executor.queue).now }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        deliver(action)
    }

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        executor.run(after: delay, action)
    }
}

/// A value that belongs to one executor (an element, a screen's closure), carried by a closure
/// that must be `Sendable` (a stream's observer) and used only back on that executor, which is
/// checked.
struct Confined<Value>: @unchecked Sendable {
    // SAFETY: `value` is read only through `get`, which stops the program unless the caller runs
    // on `executor`: the value is never used on two threads.
    private let value: Value
    let executor: WebExecutor

    init(_ value: Value, on executor: WebExecutor = .current) {
        self.value = value
        self.executor = executor
    }

    /// The value; only on its executor.
    var get: Value {
        precondition(executor.isCurrent, "a page's element was used off its session's executor")
        return value
    }
}

extension WebExecutor {
    /// Runs `work` on the executor, on the caller's thread, and returns its result: for a new
    /// session's executor, that nothing has been queued on yet, so `work` runs at once, with no
    /// hop to another thread and back (the server builds a new tab's page this way).
    package func performHere<Result>(_ work: () -> Result) -> Result {
        if isMain { preconditionFailure("the main executor's work is run on the main actor (perform)") }
        return queue.sync(execute: work)
    }

    /// Runs `work` on the executor and returns its result.
    public func perform<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            run { continuation.resume(returning: work()) }
        }
    }
}
