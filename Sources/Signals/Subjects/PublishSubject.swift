/// A hot stream you push values into; each subscriber receives what is sent after it subscribed.
///
/// ```text
/// send:        a-b-c-|
/// subscriber:  ^-b-c-|      (subscribed at tick 0, after a was sent)
/// ```
///
/// Sending is thread-safe. Deliveries never overlap: a value sent while another is being
/// delivered (from another thread, or from inside an observer) is delivered right after it, in
/// order, possibly on the thread that was already delivering. After `completed` or `failed`,
/// sends are ignored and new subscribers receive the terminal event at once.
public final class PublishSubject<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let core: SubjectCore<Value, Failure>

    public init() {
        core = SubjectCore(replayLimit: 0, replaysAfterTerminal: false)
    }

    /// Once nothing can send into the subject or subscribe to it (the subject and every signal
    /// and observer taken from it are released), its subscribers' observers are released too,
    /// without a terminal event, even where a subscription was never disposed.
    deinit {
        core.releaseSubscribers()
    }

    /// Sends a value to every current subscriber.
    @inlinable
    public func send(_ value: Value) {
        core.send(value)
    }

    /// Ends the stream for every subscriber.
    public func send(completion: Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Completes the stream.
    public func sendCompleted() {
        core.send(completion: .completed)
    }

    /// Fails the stream.
    public func sendFailed(_ error: Failure) {
        core.send(completion: .failed(error))
    }

    /// The stream of values sent from now on.
    @inlinable
    public var signal: Signal<Value, Failure> {
        Signal(unchecked: { [self] observer in core.subscribe(observer) })
    }

    /// An observer that forwards into this subject, for `signal.subscribe(subject.observer)`.
    public var observer: Observer<Value, Failure> {
        Observer(value: { [self] in core.send($0) }, completion: { [self] in core.send(completion: $0) })
    }

    /// How many subscriptions are attached (for tests and diagnostics).
    public var subscriberCount: Int { core.subscriberCount }
}
