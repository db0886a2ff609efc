/// A hot stream that replays its latest `bufferSize` values to each new subscriber, then
/// forwards what is sent afterwards.
///
/// ```text
/// send:        a-b-c----d-|
/// subscriber:  ------[^bc]--d-|   (bufferSize 2, subscribed at tick 6)
/// ```
///
/// After the terminal event, new subscribers receive the buffered values and then the terminal
/// event. Thread safety and ordering are those of ``PublishSubject``.
public final class ReplaySubject<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let core: SubjectCore<Value, Failure>

    /// Creates a subject that replays up to `bufferSize` values (at least 1).
    public init(bufferSize: Int) {
        precondition(bufferSize > 0, "ReplaySubject: bufferSize must be at least 1; use PublishSubject for none")
        core = SubjectCore(replayLimit: bufferSize, replaysAfterTerminal: true)
    }

    /// Once nothing can send into the subject or subscribe to it (the subject and every signal
    /// and observer taken from it are released), its subscribers' observers are released too,
    /// without a terminal event, even where a subscription was never disposed.
    deinit {
        core.releaseSubscribers()
    }

    /// Sends a value to every current subscriber and keeps it for later ones.
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

    /// The buffered values, then everything sent from now on.
    @inlinable
    public var signal: Signal<Value, Failure> {
        Signal(unchecked: { [self] observer in core.subscribe(observer) })
    }

    /// An observer that forwards into this subject.
    public var observer: Observer<Value, Failure> {
        Observer(value: { [self] in core.send($0) }, completion: { [self] in core.send(completion: $0) })
    }

    /// How many subscriptions are attached (for tests and diagnostics).
    public var subscriberCount: Int { core.subscriberCount }
}
