@usableFromInline
struct ThrottleState<Value: Sendable> {
    var lastSent: SchedulerInstant?
    var pending: Value?
    var timerScheduled = false
    var completionWaiting = false
}

/// Which value of a throttle window is kept: the newest (emitted when the window ends) or none
/// but the first (values inside a window are dropped).
public enum ThrottleKeeping: Sendable {
    /// The newest value of each window is emitted when the window ends (RxSwift's
    /// `latest: true`, the default).
    case latest
    /// Values inside a window are dropped (RxSwift's `latest: false`).
    case first
}

extension Signal {
    /// Emits the first value at once, then at most one value per `interval`: keeping `.latest`
    /// (the default), the newest value of each window is emitted when the window ends; keeping
    /// `.first`, values inside a window are dropped (RxSwift's `throttle(_:latest:scheduler:)`).
    ///
    /// ```text
    /// self:      ab-c---d-e|
    /// throttle:  a--c---d--[e|]
    /// ```
    ///
    /// (`throttle(for: 3 ticks)` in the diagram.) A pending latest value is still emitted at
    /// its time after the source completes, then the result completes; a failure is forwarded
    /// at once.
    public func throttle(for interval: Duration, on scheduler: some Scheduler, keeping: ThrottleKeeping = .latest) -> Signal {
        let latest = keeping == .latest
        return Signal(unchecked: { downstream in
            typealias Box = SerialBox<ThrottleState<Value>, Value, Failure>
            let box = Box(downstream, state: ThrottleState())
            let timers = TimerBag()
            box.resources.add(timers)
            box.attach(self, value: { box, value in
                let now = scheduler.now
                let elapsed = box.state.lastSent.map { now - $0 } ?? interval
                if elapsed >= interval && !box.state.timerScheduled {
                    box.state.lastSent = now
                    box.emit(value)
                    return
                }
                guard latest else { return }
                box.state.pending = value
                guard !box.state.timerScheduled else { return }
                box.state.timerScheduled = true
                timers.schedule(after: max(.zero, interval - elapsed), on: scheduler) {
                    box.perform(()) { box, _ in
                        box.state.timerScheduled = false
                        if let value = box.state.pending {
                            box.state.pending = nil
                            box.state.lastSent = scheduler.now
                            box.emit(value)
                        }
                        if box.state.completionWaiting { box.finish(.completed) }
                    }
                }
            }, completion: { box, completion in
                if case .completed = completion, box.state.pending != nil {
                    box.state.completionWaiting = true
                } else {
                    box.finish(completion)
                }
            })
            return box
        })
    }
}
