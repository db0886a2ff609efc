/// One connection of a shared stream: the subject subscribers attach to, the upstream
/// subscription, and how many subscribers it has.
final class ShareConnection<Value: Sendable, Failure: Error>: Sendable {
    let subject: SubjectCore<Value, Failure>
    let upstream = SerialDisposable()
    let subscribers = Locked(0)

    init(replay: Int) {
        subject = SubjectCore(replayLimit: replay, replaysAfterTerminal: false)
    }
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
        let current = Locked<ShareConnection<Value, Failure>?>(nil)
        return Signal(unchecked: { downstream in
            let (connection, mustConnect) = current.withLock { current -> (ShareConnection<Value, Failure>, Bool) in
                let connection = current ?? ShareConnection(replay: replay)
                current = connection
                let count = connection.subscribers.withLock { count -> Int in
                    count += 1
                    return count
                }
                return (connection, count == 1)
            }
            let subscription = connection.subject.subscribe(downstream)
            if mustConnect {
                connection.upstream.inner = self.subscribe(Observer(
                    value: { connection.subject.send($0) },
                    completion: { completion in
                        // A finished connection is not reused: the next subscriber reconnects.
                        current.withLock { if $0 === connection { $0 = nil } }
                        connection.subject.send(completion: completion)
                    }
                ))
            }
            return AnyDisposable {
                subscription.dispose()
                let last = connection.subscribers.withLock { count -> Bool in
                    count -= 1
                    return count == 0
                }
                guard last else { return }
                current.withLock { current in
                    if current === connection { current = nil }
                }
                connection.upstream.dispose()
            }
        })
    }
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
    public func refCount() -> Signal<Value, Failure> {
        let state = Locked<(count: Int, connection: (any Disposable)?)>((0, nil))
        return Signal(unchecked: { downstream in
            let subscription = subjectSignal.subscribe(downstream)
            let first = state.withLock { state -> Bool in
                state.count += 1
                return state.count == 1
            }
            if first {
                let connection = connect()
                let stale = state.withLock { state -> Bool in
                    if state.count == 0 { return true }
                    state.connection = connection
                    return false
                }
                if stale { connection.dispose() }
            }
            return AnyDisposable {
                subscription.dispose()
                let connection = state.withLock { state -> (any Disposable)? in
                    state.count -= 1
                    guard state.count == 0 else { return nil }
                    defer { state.connection = nil }
                    return state.connection
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
