/// One connection of a shared stream: the subject subscribers attach to and the upstream
/// subscription.
final class ShareConnection<Value: Sendable, Failure: Error>: Sendable {
    let subject: SubjectCore<Value, Failure>
    let upstream = SerialDisposable()

    init(replay: Int) {
        subject = SubjectCore(replayLimit: replay, replaysAfterTerminal: false)
    }
}

/// The state of `share`, behind one lock: the current connection and how many subscribers it
/// has. Every decision (connect, disconnect, forget a finished connection) is one transition of
/// this state, so a subscriber arriving while the last one leaves always ends up connected.
struct ShareState<Value: Sendable, Failure: Error> {
    var connection: ShareConnection<Value, Failure>?
    var subscribers = 0
}

extension Signal {
    /// Shares one subscription to this stream among all subscribers, replaying the latest
    /// `replay` values to each new one (RxSwift's `share(replay:scope: .whileConnected)`).
    ///
    /// ```text
    /// self:    -a-b-c-|
    /// first:   -a-b-c-|
    /// second:  ---[^b]-c-|   (replay 1, subscribed at tick 3, after b)
    /// ```
    ///
    /// The first subscriber connects (subscribes to this stream once); when the last one leaves,
    /// the connection is disposed; a later subscriber connects anew. After the stream ends, the
    /// next subscriber also starts a new connection.
    public func share(replay: Int = 0) -> Signal {
        precondition(replay >= 0, "share: replay must not be negative")
        let state = Locked(ShareState<Value, Failure>())
        return Signal(unchecked: { downstream in
            let (connection, mustConnect) = state.withLock { state -> (ShareConnection<Value, Failure>, Bool) in
                if let connection = state.connection {
                    state.subscribers += 1
                    return (connection, false)
                }
                let connection = ShareConnection<Value, Failure>(replay: replay)
                state.connection = connection
                state.subscribers = 1
                return (connection, true)
            }
            let subscription = connection.subject.subscribe(downstream)
            if mustConnect {
                // If every subscriber left meanwhile, `upstream` is disposed and this
                // subscription ends as soon as it is stored.
                connection.upstream.inner = self.subscribe(Observer(
                    value: { connection.subject.send($0) },
                    completion: { completion in
                        // A finished connection is not reused: the next subscriber reconnects.
                        state.withLock { state in
                            if state.connection === connection {
                                state.connection = nil
                                state.subscribers = 0
                            }
                        }
                        connection.subject.send(completion: completion)
                    }
                ))
            }
            return AnyDisposable {
                subscription.dispose()
                let disconnect = state.withLock { state -> Bool in
                    // A subscriber of a finished connection no longer counts.
                    guard state.connection === connection else { return false }
                    state.subscribers -= 1
                    guard state.subscribers == 0 else { return false }
                    state.connection = nil
                    return true
                }
                if disconnect { connection.upstream.dispose() }
            }
        })
    }
}

/// The connection state of `refCount`, behind one lock.
struct RefCountState {
    enum Phase {
        /// Not connected.
        case idle
        /// The first subscriber is connecting (outside the lock); `disconnect` is set when every
        /// subscriber left meanwhile, so the connection is disposed as soon as it exists.
        case connecting(disconnect: Bool)
        case connected(any Disposable)
    }

    var subscribers = 0
    var phase = Phase.idle
}

/// A stream that starts its single upstream subscription only when told to (`connect()`),
/// delivering through a subject to every subscriber.
public struct ConnectableSignal<Value: Sendable, Failure: Error>: Sendable {
    let source: Signal<Value, Failure>
    let subjectSignal: Signal<Value, Failure>
    let subjectObserver: Observer<Value, Failure>

    /// The shared stream: subscribe to it, then `connect()`.
    public var signal: Signal<Value, Failure> { subjectSignal }

    /// Subscribes the subject to the source. Dispose the result to disconnect.
    public func connect() -> any Disposable {
        source.subscribe(subjectObserver)
    }

    /// Connects when the first subscriber arrives and disconnects when the last one leaves.
    ///
    /// A subscriber that arrives while the first one is still connecting shares that
    /// connection; one that arrives after the last left while it was connecting keeps it too.
    public func refCount() -> Signal<Value, Failure> {
        let state = Locked(RefCountState())
        return Signal(unchecked: { downstream in
            let subscription = subjectSignal.subscribe(downstream)
            let mustConnect = state.withLock { state -> Bool in
                state.subscribers += 1
                guard state.subscribers == 1 else { return false }
                switch state.phase {
                case .idle:
                    state.phase = .connecting(disconnect: false)
                    return true
                case .connecting:
                    state.phase = .connecting(disconnect: false)
                    return false
                case .connected:
                    return false
                }
            }
            if mustConnect {
                let connection = connect()
                let keep = state.withLock { state -> Bool in
                    if case .connecting(disconnect: false) = state.phase {
                        state.phase = .connected(connection)
                        return true
                    }
                    state.phase = .idle
                    return false
                }
                if !keep { connection.dispose() }
            }
            return AnyDisposable {
                subscription.dispose()
                let connection = state.withLock { state -> (any Disposable)? in
                    state.subscribers -= 1
                    guard state.subscribers == 0 else { return nil }
                    switch state.phase {
                    case .idle:
                        return nil
                    case .connecting:
                        state.phase = .connecting(disconnect: true)
                        return nil
                    case .connected(let connection):
                        state.phase = .idle
                        return connection
                    }
                }
                connection?.dispose()
            }
        })
    }
}

extension Signal {
    /// Routes this stream through `subject` for all subscribers, starting only on `connect()`
    /// (RxSwift's `multicast`, `publish`).
    ///
    /// ```swift
    /// let connectable = requests.multicast(PublishSubject())
    /// connectable.signal.sink { … }
    /// connectable.signal.sink { … }
    /// let connection = connectable.connect()
    /// ```
    public func multicast(_ subject: PublishSubject<Value, Failure>) -> ConnectableSignal<Value, Failure> {
        ConnectableSignal(source: self, subjectSignal: subject.signal, subjectObserver: subject.observer)
    }

    /// Routes this stream through a replaying subject, starting only on `connect()`.
    public func multicast(_ subject: ReplaySubject<Value, Failure>) -> ConnectableSignal<Value, Failure> {
        ConnectableSignal(source: self, subjectSignal: subject.signal, subjectObserver: subject.observer)
    }
}
