import Signals

/// A stream for the UI: it never fails, delivers on the main actor, and shares one subscription
/// that replays the latest value to each new subscriber (RxCocoa's `Driver`).
///
/// ```swift
/// viewModel.results.asDriver(onErrorJustReturn: [])
///     .drive { rows in list.rows = rows }
///     .disposed(by: bag)
/// ```
///
/// `drive` is `@MainActor`: its closure runs on the main actor, and calling it from elsewhere
/// does not compile. When the value is produced on the main thread, it is delivered at once;
/// from another thread it hops to the main queue.
public struct Driver<Value: Sendable>: Sendable {
    /// The underlying stream: main-actor delivery, shared, replaying the latest value.
    public let signal: Signal<Value, Never>

    init(unchecked signal: Signal<Value, Never>) {
        self.signal = signal
    }

    /// Makes a driver of `signal`: observed on the main thread, shared with replay 1.
    ///
    /// Each driver has its own main scheduler, so its values keep their order and arrive at
    /// once on the main thread when nothing of *this* driver is still waiting for the main queue,
    /// whatever other streams have queued there.
    init(_ signal: Signal<Value, Never>) {
        self.signal = signal.observe(on: MainScheduler()).share(replay: 1)
    }

    /// A driver that emits `value` and completes.
    public static func just(_ value: Value) -> Driver {
        Driver(Signal.just(value))
    }

    /// A driver that never emits.
    public static var never: Driver {
        Driver(unchecked: .never)
    }

    /// Runs `body` on the main actor with each value, starting with the latest one.
    @MainActor
    public func drive(_ body: @escaping @MainActor (Value) -> Void) -> any Disposable {
        signal.sink(value: { value in
            MainActor.assumeIsolated { body(value) }
        })
    }

    /// Sets `property` to each value.
    @MainActor
    public func drive(_ property: MutableProperty<Value>) -> any Disposable {
        signal.subscribe(property.observer)
    }

    /// Delivers each value to `target` for as long as the target's lifetime lasts.
    @MainActor
    public func drive(_ target: BindingTarget<Value>) -> any Disposable {
        signal.bind(to: target)
    }

    /// Transforms each value; the result is still a driver.
    public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Driver<NewValue> {
        Driver<NewValue>(unchecked: signal.map(transform).share(replay: 1))
    }

    /// Keeps the values for which `isIncluded` holds.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Driver {
        Driver(unchecked: signal.filter(isIncluded).share(replay: 1))
    }

    /// Transforms each value and drops `nil`s.
    public func compactMap<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue?) -> Driver<NewValue> {
        Driver<NewValue>(unchecked: signal.compactMap(transform).share(replay: 1))
    }

    /// Starts with `value`.
    public func prepend(_ value: Value) -> Driver {
        Driver(unchecked: signal.prepend(value).share(replay: 1))
    }
}

extension Driver where Value: Equatable {
    /// Drops a value equal to the previous one.
    public func removeDuplicates() -> Driver {
        Driver(unchecked: signal.removeDuplicates().share(replay: 1))
    }
}

extension Signal {
    /// A driver of this stream that, on failure, emits `value` and completes.
    public func asDriver(onErrorJustReturn value: Value) -> Driver<Value> {
        Driver(replaceError(with: value))
    }

    /// A driver of this stream that, on failure, continues with `fallback`.
    public func asDriver(onErrorDriveWith fallback: Driver<Value>) -> Driver<Value> {
        Driver(self.catch { _ in fallback.signal })
    }

    /// A driver of this stream that, on failure, continues with the driver `recover` returns.
    public func asDriver(onErrorRecover recover: @escaping @Sendable (Failure) -> Driver<Value>) -> Driver<Value> {
        Driver(self.catch { error in recover(error).signal })
    }
}

extension Signal where Failure == Never {
    /// A driver of this stream, which cannot fail.
    public func asDriver() -> Driver<Value> {
        Driver(self)
    }
}

extension Property {
    /// A driver of this property: the current value, then each change, on the main actor.
    public func asDriver() -> Driver<Value> {
        signal.asDriver()
    }
}

extension MutableProperty {
    /// A driver of this property: the current value, then each change, on the main actor.
    public func asDriver() -> Driver<Value> {
        signal.asDriver()
    }
}
