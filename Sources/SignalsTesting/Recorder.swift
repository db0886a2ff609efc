import Signals
import Synchronization

/// Something that happened at a virtual time.
public struct Recorded<Element: Sendable>: Sendable {
    public let time: SchedulerInstant
    public let element: Element

    public init(time: SchedulerInstant, element: Element) {
        self.time = time
        self.element = element
    }
}

extension Recorded: Equatable where Element: Equatable {}

/// Records every event a subscription receives, with the virtual time it arrived at.
///
/// ```swift
/// let recorder = scheduler.record(viewModel.isLoginEnabled)
/// scheduler.advance(by: .seconds(1))
/// #expect(recorder.recordedValues == [false, true])
/// ```
public final class Recorder<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var events: [Recorded<Event<Value, Failure>>] = []
        var subscribedAt: SchedulerInstant?
        var disposedAt: SchedulerInstant?
        var subscription: (any Disposable)?
    }

    private let state = Locked(State())
    private let clock: (@Sendable () -> SchedulerInstant)

    /// Creates a recorder that stamps events with `scheduler`'s time (zero without one).
    public init(scheduler: (any Scheduler)? = nil) {
        if let scheduler {
            clock = { scheduler.now }
        } else {
            clock = { .zero }
        }
    }

    /// An observer that records into this recorder. It holds the recorder weakly: the recorder
    /// keeps its subscription, so a strong reference back would make a cycle that outlives the
    /// test whenever the recorded stream never ends.
    public var observer: Observer<Value, Failure> {
        Observer(
            value: { [weak self] value in self?.append(.value(value)) },
            completion: { [weak self] completion in self?.append(Event(completion)) }
        )
    }

    deinit {
        // A recorder that goes away ends what it recorded (nothing is left subscribed).
        state.withLock { $0.subscription }?.dispose()
    }

    private func append(_ event: Event<Value, Failure>) {
        let time = clock()
        state.withLock { $0.events.append(Recorded(time: time, element: event)) }
    }

    /// Subscribes to `signal` now and keeps the subscription until ``dispose()``.
    public func subscribe(to signal: Signal<Value, Failure>) {
        let time = clock()
        state.withLock { $0.subscribedAt = time }
        let subscription = signal.subscribe(observer)
        // A subscription replaced by a second call is released after unlocking.
        _ = state.withLock { state -> (any Disposable)? in
            defer { state.subscription = subscription }
            return state.subscription
        }
    }

    /// Disposes the recorded subscription (recording the time, unless it had already ended).
    public func dispose() {
        let time = clock()
        let subscription = state.withLock { state -> (any Disposable)? in
            if state.disposedAt == nil && !state.events.contains(where: { $0.element.isTerminal }) {
                state.disposedAt = time
            }
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.dispose()
    }

    /// Every event so far, with its time.
    public var events: [Recorded<Event<Value, Failure>>] {
        state.withLock { $0.events }
    }

    /// The values recorded so far, in order.
    public var recordedValues: [Value] {
        events.compactMap(\.element.value)
    }

    /// The terminal event, if the stream has ended.
    public var completion: Completion<Failure>? {
        for recorded in events {
            switch recorded.element {
            case .completed: return .completed
            case .failed(let error): return .failed(error)
            case .value: continue
            }
        }
        return nil
    }

    /// Whether the stream completed normally.
    public var isCompleted: Bool {
        if case .completed = completion { return true }
        return false
    }

    /// The failure, if the stream failed.
    public var failure: Failure? { completion?.failure }

    var subscribedAt: SchedulerInstant? { state.withLock { $0.subscribedAt } }
    var disposedAt: SchedulerInstant? { state.withLock { $0.disposedAt } }
}

extension Recorder where Value: Equatable, Failure: Equatable {
    /// The events without their times.
    public var elements: [Event<Value, Failure>] { events.map(\.element) }
}
