import Signals

/// Why applying an ``Action`` failed: it was not enabled (or already running), or its work
/// failed.
public enum ActionError<Failure: Error>: Error {
    /// The action was disabled or already executing; no work was started.
    case disabled
    /// The work failed with this error.
    case failed(Failure)
}

extension ActionError: Equatable where Failure: Equatable {}

/// What applying an ``Action`` does while it is already running.
public enum WhileExecuting: Sendable, Equatable {
    /// It fails with ``ActionError/disabled`` and starts nothing (a login pressed twice).
    case refuse
    /// It waits its turn: the applications run one after another, in the order they were
    /// made (a to-do added while the one before it is still being saved).
    case queue
}

/// A command a view triggers and a view model defines: work that runs for an input, at most once
/// at a time, only while enabled (the successor of ReactiveCocoa's `RACCommand` and
/// ReactiveSwift's `Action`).
///
/// ```swift
/// let login = Action(enabledIf: isLoginEnabled) { (credentials: Credentials) in
///     service.login(credentials)
/// }
/// login.isExecuting.signal.sink { spinner.isAnimating = $0 }
/// login.apply(credentials).sink()
/// ```
///
/// - `isEnabled` is `enabledIf` and not executing; a button binds to it.
/// - `apply(_:)` returns a cold stream: subscribing starts the work, disposing cancels it.
///   Applying while disabled or already executing fails that stream with
///   ``ActionError/disabled`` and starts nothing; such attempts never reach ``errors``.
/// - ``outputs`` and ``errors`` carry the outputs and failures of every execution, whoever applied.
/// - `isExecuting` turns `true` before the work starts and `false` before the terminal event is
///   delivered, so an observer may apply again from its completion handler.
///
/// An action made with `whileExecuting: .queue` never refuses for running: what is applied
/// while it runs waits its turn, in order (two to-dos typed back to back are both added, in the
/// order typed). Its work's closure is called when it is applied, so it reads the view model as
/// the person left it at that moment (the field's text as they pressed Enter); the stream it
/// returns starts when its turn comes. `isEnabled` is then `enabledIf` alone, and `isExecuting`
/// stays `true` until the last application waiting has finished.
public final class Action<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    private let work: @Sendable (Input) -> Signal<Output, Failure>
    private let enabledIf: Property<Bool>
    /// Whether the work is running: the one state `apply` decides on and `isExecuting` and
    /// `isEnabled` read, so a button never reads enabled while a press would be refused. It is
    /// set with a compare-and-set (`update`), and its changes reach observers in the order they
    /// were made.
    private let executing = MutableProperty(false)
    private let valuesSubject = PublishSubject<Output, Never>()
    private let errorsSubject = PublishSubject<Failure, Never>()
    /// What applying does while the work runs.
    public let whileExecuting: WhileExecuting
    /// With ``WhileExecuting/queue``: the applications waiting their turn, oldest first. Taken
    /// only by whoever holds `executing` at `true` (see `startWaiting`).
    private let waiting = Locked<[Waiting]>([])

    /// An application waiting its turn: starts its stream, or, disposed meanwhile, passes the
    /// turn on.
    private struct Waiting: Sendable {
        let start: @Sendable () -> Void
    }

    /// Whether the work is running.
    public let isExecuting: Property<Bool>
    /// Whether applying would start the work: `enabledIf` holds and it is not executing.
    ///
    /// Reading `value` is exact at every moment: it reads the state `apply` decides on (not a
    /// cache that an observer on another thread may not have updated yet), so with no other
    /// thread applying, `apply` starts the work exactly when `isEnabled.value` was `true`.
    public let isEnabled: Property<Bool>
    /// The latest value of any execution, `nil` until there is one: what a screen that loads
    /// one thing shows.
    public let latestValue: Property<Output?>
    /// The failure of the latest execution: set when it fails, back to `nil` when the next one
    /// starts (so a retry clears the message). Map it to the text an error label shows.
    public let latestFailure: Property<Failure?>

    /// Creates an action whose work is a stream, enabled while `enabledIf` is `true`.
    public init(
        enabledIf: Property<Bool> = Property(value: true),
        whileExecuting: WhileExecuting = .refuse,
        execute work: @escaping @Sendable (Input) -> Signal<Output, Failure>
    ) {
        self.work = work
        self.enabledIf = enabledIf
        self.whileExecuting = whileExecuting
        let executing = self.executing
        isExecuting = executing.readOnly
        let enabledSignal = enabledIf.signal.combineLatest(executing.signal)
            .map { enabled, executing in enabled && !executing }
            .removeDuplicates()
        if whileExecuting == .queue {
            isEnabled = enabledIf
        } else {
        isEnabled = Property(
            reading: { enabledIf.value && !executing.value },
            signal: enabledSignal,
            keeping: [enabledIf, executing] as [any Sendable]
        )
        }
        latestValue = Property(initial: nil, then: valuesSubject.signal.map { $0 })
        latestFailure = Property(initial: nil, then: Signal<Failure?, Never>.merge([
            errorsSubject.signal.map { $0 },
            executing.changes.filter { $0 }.map { _ in nil },
        ]))
    }

    /// Creates an action whose work is an `async` function; disposing the applied stream
    /// cancels its task. A function with untyped `throws` (most services) gives an action whose
    /// `Failure` is `any Error`, with no annotation and no do/catch:
    ///
    /// ```swift
    /// let save = Action { (items: [Todo]) in try await store.save(items) }
    /// ```
    public convenience init(
        enabledIf: Property<Bool> = Property(value: true),
        whileExecuting: WhileExecuting = .refuse,
        execute work: @escaping @Sendable (Input) async throws(Failure) -> Output
    ) {
        self.init(enabledIf: enabledIf, whileExecuting: whileExecuting) { input in
            Signal<Output, Failure>.task { () async throws(Failure) -> Output in try await work(input) }
        }
    }

    /// The outputs of every execution, whoever applied it (ReactiveSwift's `values`; here
    /// `values` is only ever a stream's async sequence).
    public var outputs: Signal<Output, Never> { valuesSubject.signal }

    /// The failures of every execution (not the refusals of a disabled action).
    public var errors: Signal<Failure, Never> { errorsSubject.signal }

    /// A stream that runs the work for `input` when subscribed, if the action is enabled and not
    /// executing; otherwise it fails at once with ``ActionError/disabled``.
    public func apply(_ input: Input) -> Signal<Output, ActionError<Failure>> {
        if whileExecuting == .queue { return applyInTurn(input) }
        return Signal<Output, ActionError<Failure>> { [self] observer in
            // `enabledIf` is read before the compare-and-set, with no lock held.
            let enabled = enabledIf.value
            // Starting and `isExecuting` turning true are one atomic step: no moment exists
            // where the action is running but reads enabled.
            guard enabled, executing.update({ running in
                guard !running else { return false }
                running = true
                return true
            }) else {
                observer.sendFailed(.disabled)
                return NopDisposable()
            }
            let finished = Locked(false)
            let finish: @Sendable () -> Void = { [executing] in
                let first = finished.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                guard first else { return }
                executing.value = false
            }
            let subscription = work(input).subscribe(Observer(
                value: { [valuesSubject] value in
                    valuesSubject.send(value)
                    observer.send(value)
                },
                completion: { [errorsSubject] completion in
                    finish()
                    switch completion {
                    case .completed:
                        observer.sendCompleted()
                    case .failed(let error):
                        errorsSubject.send(error)
                        observer.sendFailed(.failed(error))
                    }
                }
            ))
            return AnyDisposable {
                subscription.dispose()
                finish()
            }
        }
    }

    /// `apply` of an action that queues: the work's closure is called now; its stream starts at
    /// once if nothing runs, else when the applications before it have finished.
    private func applyInTurn(_ input: Input) -> Signal<Output, ActionError<Failure>> {
        Signal<Output, ActionError<Failure>> { [self] observer in
            guard enabledIf.value else {
                observer.sendFailed(.disabled)
                return NopDisposable()
            }
            let stream = work(input)
            // Waiting, started, or disposed (before it started, its turn is passed on unused).
            let phase = Locked(0)
            let subscription = SerialDisposable()
            let ended = Locked(false)
            let finish: @Sendable () -> Void = { [self] in
                let first = ended.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { finishInTurn() }
            }
            let start: @Sendable () -> Void = { [self] in
                guard phase.withLock({ phase -> Bool in
                    guard phase == 0 else { return false }
                    phase = 1
                    return true
                }) else {
                    finishInTurn()
                    return
                }
                subscription.inner = stream.subscribe(Observer(
                    value: { [valuesSubject] value in
                        valuesSubject.send(value)
                        observer.send(value)
                    },
                    completion: { [errorsSubject] completion in
                        switch completion {
                        case .completed:
                            finish()
                            observer.sendCompleted()
                        case .failed(let failure):
                            errorsSubject.send(failure)
                            finish()
                            observer.sendFailed(.failed(failure))
                        }
                    }
                ))
            }
            waiting.withLock { $0.append(Waiting(start: start)) }
            startWaiting()
            return AnyDisposable {
                let started = phase.withLock { phase -> Bool in
                    defer { phase = 2 }
                    return phase == 1
                }
                subscription.dispose()
                // Disposed while it ran: its turn ends now (the stream's own end never comes).
                if started { finish() }
            }
        }
    }

    /// Starts the oldest waiting application if nothing runs. Whoever turns `executing` from
    /// `false` to `true` takes the next one; finding none, it turns it back and looks again (an
    /// application may have arrived between its look and its turn).
    private func startWaiting() {
        while waiting.withLock({ !$0.isEmpty }) {
            guard executing.update({ running in
                guard !running else { return false }
                running = true
                return true
            }) else { return }
            if let next = waiting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                next.start()
                return
            }
            executing.value = false
        }
    }

    /// The running application has ended: the next waiting one starts (`executing` stays
    /// `true`), or, none waiting, `executing` turns `false`.
    private func finishInTurn() {
        if let next = waiting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            next.start()
            return
        }
        executing.value = false
        startWaiting()
    }

    /// Applies the action and ignores the result stream (values and errors still reach
    /// ``outputs`` and ``errors``). Returns the subscription, to cancel the work.
    @discardableResult
    public func execute(_ input: Input) -> any Disposable {
        apply(input).sink()
    }
}

extension Action where Input == Void {
    /// Applies an action that takes no input.
    public func apply() -> Signal<Output, ActionError<Failure>> {
        apply(())
    }

    /// Applies an action that takes no input and ignores the result stream.
    @discardableResult
    public func execute() -> any Disposable {
        execute(())
    }
}

extension Signal where Failure == Never {
    /// Applies `action` with each value, as a button applies it with a tap: a value that comes
    /// while the action is disabled or running is dropped (ReactiveSwift's `action <~ signal`).
    /// The results arrive on the action's `outputs` and `errors`.
    ///
    /// ```swift
    /// addButtonTaps.map { _ in () }.bind(to: viewModel.add)
    /// ```
    ///
    /// Disposing the result stops applying; work already started keeps running.
    @discardableResult
    public func bind<Output: Sendable, ActionFailure: Error>(to action: Action<Value, Output, ActionFailure>) -> any Disposable {
        sink(value: { value in _ = action.execute(value) })
    }
}
