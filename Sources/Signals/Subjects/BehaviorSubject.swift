import Synchronization

/// A hot stream with a current value: each new subscriber receives the current value first,
/// then what is sent afterwards (RxSwift's `BehaviorSubject`, Combine's `CurrentValueSubject`).
///
/// ```text
/// send:        -b--c-|      (initial value a)
/// subscriber:  ab--c-|
/// late:        ---[^b]c-|   (subscribed at tick 3: receives b at once)
/// ```
///
/// `value` reflects the latest `send` as soon as it returns, even while delivery to observers
/// is still under way on another thread; observers see values in the same order. After the
/// terminal event, sends are ignored and new subscribers receive only the terminal event.
public final class BehaviorSubject<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    struct Latest {
        @usableFromInline var value: Value
        /// Why a plain `send` cannot take its fast path, in one word so that the fast path checks
        /// it with one comparison: bit 0 once terminated, plus 2 for each `modify` call under way
        /// (see ``isTerminated`` and ``modifying``). Zero for neither.
        @usableFromInline var detour: UInt = 0
        /// Counts the changes made while a `modify` call is under way, so that `modify` can tell
        /// whether another change landed while its closure ran. The fast path of `send` does not
        /// count: it runs only while no `modify` is under way (`detour` is 0), and a `modify`
        /// compares versions only across its own call.
        @usableFromInline var version: UInt64 = 0
        /// The threads running a `modify` closure on this subject now (one entry per call).
        @usableFromInline var modifiers: [UInt] = []

        @inlinable
        init(value: Value) { self.value = value }

        /// Whether the terminal event was sent.
        var isTerminated: Bool {
            get { detour & 1 != 0 }
            set { detour = newValue ? detour | 1 : detour & ~1 }
        }

        /// How many `modify` calls are under way.
        var modifying: UInt { detour >> 1 }

        /// Registers a `modify` call of `thread`.
        mutating func enterModify(_ thread: UInt) {
            modifiers.append(thread)
            detour += 2
        }

        /// Ends the `modify` call of `thread`, if it is registered.
        mutating func leaveModify(_ thread: UInt) {
            guard let index = modifiers.firstIndex(of: thread) else { return }
            modifiers.remove(at: index)
            detour -= 2
        }
    }

    @usableFromInline
    let core: SubjectCore<Value, Failure>
    @usableFromInline
    let latest: Locked<Latest>

    /// Creates a subject whose current value is `value`.
    public init(_ value: Value) {
        core = SubjectCore(replayLimit: 1, replaysAfterTerminal: false, initial: [value])
        latest = Locked(Latest(value: value))
    }

    /// Once nothing can send into the subject or subscribe to it (the subject and every signal
    /// and observer taken from it are released), its subscribers' observers are released too,
    /// without a terminal event, even where a subscription was never disposed.
    deinit {
        core.releaseSubscribers()
    }

    /// The current value: the one most recently sent.
    public var value: Value {
        latest.withLock { $0.value }
    }

    /// Sets the current value and sends it to every subscriber.
    @inlinable
    public func send(_ value: Value) {
        let core = self.core
        // The value changes and its delivery takes its place in line under the same lock, so
        // observers see values in the order `value` took them. Delivery runs after unlocking.
        // Fast path: not terminated, no `modify` under way (so no version to count, and no
        // chance that this thread is inside `modify`), and the queue is free, so this value is
        // next. Anything else goes out of line.
        let direct = latest.withLock { latest -> Bool in
            if latest.detour != 0 || !core.queue.tryAcquire() { return false }
            latest.value = value
            return true
        }
        if direct {
            core.deliver(value)
            core.queue.releaseAndDrain()
        } else {
            sendInLine(value)
        }
    }

    /// The slow path of `send`: another thread is delivering (this value takes its place in
    /// line under the same lock as the change, and waits for its turn after unlocking), a
    /// `modify` is under way, or the subject has terminated.
    @usableFromInline
    func sendInLine(_ value: Value) {
        _ = write(value, expecting: nil, leaving: nil)
    }

    /// Sets the value and delivers it in turn: at once when the queue is free, otherwise after
    /// taking a place in line under the lock. With `version`, writes only if no other change
    /// landed since (returns `false` then, having written nothing); `modifier` is a `modify`
    /// call of this thread that ends here.
    func write(_ value: Value, expecting version: UInt64?, leaving modifier: UInt?) -> Bool {
        let core = self.core
        var ticket: DeliveryQueue.Ticket?
        let outcome = latest.withLock { latest -> Bool? in
            if let modifier { latest.leaveModify(modifier) }
            if latest.isTerminated { return false }
            if let version, latest.version != version { return nil }
            if latest.modifying != 0 { refuseWriteInsideModify(latest.modifiers) }
            latest.value = value
            latest.version &+= 1
            if core.queue.tryAcquire() { return true }
            ticket = core.enterInLine(value)
            return false
        }
        guard let direct = outcome else { return false }
        if direct {
            core.deliver(value)
            core.queue.releaseAndDrain()
        } else if let ticket {
            core.queue.complete(ticket)
        }
        return true
    }

    /// Changes the current value in place, atomically, and sends the result. Returns what `body`
    /// returns.
    ///
    /// `body` runs on a copy of the value with no lock held, so it may read this subject (or
    /// anything else). If another thread changes the value while `body` runs, the change is not
    /// lost: `body` runs again on the newer value, as a compare-and-swap loop does (Kotlin's
    /// `MutableStateFlow.update`); keep it free of side effects. Sending into this same subject
    /// from inside `body` is a programming error that would never settle: it stops the program
    /// with a message saying so, rather than hanging.
    @discardableResult
    public func modify<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        change { value in (body(&value), true) }
    }

    /// Changes the current value in place, atomically, if `body` says so: like ``modify(_:)``
    /// (`body` runs on a copy with no lock held, and again if another thread changed the value
    /// meanwhile), but when `body` returns `false` nothing is set and nothing is sent, so
    /// observers see only changes. Returns what `body` returned the last time it ran.
    package func update(_ body: (inout Value) -> Bool) -> Bool {
        change { value in
            let write = body(&value)
            return (write, write)
        }
    }

    /// The compare-and-swap loop of `modify` and `update`: `body` runs on a copy of the value
    /// with no lock held and says whether to write it; if another change landed meanwhile, it
    /// runs again on the newer value.
    private func change<Result>(_ body: (inout Value) -> (result: Result, write: Bool)) -> Result {
        let me = currentThreadID()
        while true {
            let (snapshot, version) = latest.withLock { latest -> (Value, UInt64) in
                if latest.modifying != 0 { refuseWriteInsideModify(latest.modifiers) }
                latest.enterModify(me)
                return (latest.value, latest.version)
            }
            var changed = snapshot
            let (result, shouldWrite) = body(&changed)
            guard shouldWrite else {
                latest.withLock { $0.leaveModify(me) }
                return result
            }
            // Changed by someone else meanwhile: run `body` again on the newer value.
            if write(changed, expecting: version, leaving: me) { return result }
        }
    }

    /// Ends the stream for every subscriber.
    public func send(completion: Completion<Failure>) {
        let first = latest.withLock { latest -> Bool in
            defer { latest.isTerminated = true }
            return !latest.isTerminated
        }
        if first { core.send(completion: completion) }
    }

    /// Completes the stream.
    public func sendCompleted() {
        send(completion: .completed)
    }

    /// Fails the stream.
    public func sendFailed(_ error: Failure) {
        send(completion: .failed(error))
    }

    /// The current value, then every value sent afterwards.
    @inlinable
    public var signal: Signal<Value, Failure> {
        Signal(unchecked: { [self] observer in core.subscribe(observer) })
    }

    /// An observer that forwards into this subject.
    public var observer: Observer<Value, Failure> {
        Observer(value: { [self] in send($0) }, completion: { [self] in send(completion: $0) })
    }

    /// How many subscriptions are attached (for tests and diagnostics).
    public var subscriberCount: Int { core.subscriberCount }
}

/// Stops the program when a thread sets a subject or property it is modifying. Not generic and
/// out of line, so the check costs a plain `send` one comparison.
@usableFromInline
func refuseWriteInsideModify(_ modifiers: [UInt]) {
    guard modifiers.contains(currentThreadID()) else { return }
    preconditionFailure("""
        BehaviorSubject/MutableProperty: a value was set from inside modify(_:) on the same \
        subject or property. modify changes the value through its inout argument; change it \
        there, or set the property outside modify. (Setting it inside would make modify's \
        change apply on top of a value it never saw.)
        """)
}
