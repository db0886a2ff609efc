import Synchronization

/// The machinery shared by the three subjects: an observer list and replay buffer touched only
/// by the owner of a ``DeliveryQueue``, so sends, subscriptions, disposals and completion are
/// serialized without a lock held while observers run.
@usableFromInline
final class SubjectCore<Value: Sendable, Failure: Error>: SubscriptionDetaching {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let subscription: SubjectSubscription
        @usableFromInline let observer: Observer<Value, Failure>

        @inlinable
        init(subscription: SubjectSubscription, observer: Observer<Value, Failure>) {
            self.subscription = subscription
            self.observer = observer
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var entries: ContiguousArray<Entry> = []
        @usableFromInline var terminal: Completion<Failure>?
        @usableFromInline var buffer = ReplayBuffer<Value>()
    }

    @usableFromInline
    let queue = DeliveryQueue()
    @usableFromInline
    let owner: OwnerState<State>
    /// How many latest values a new subscriber receives first (0 for a publish subject).
    @usableFromInline
    let replayLimit: Int
    /// Whether a subscriber arriving after the terminal event still gets the buffer first.
    let replaysAfterTerminal: Bool
    private let liveCount = Atomic<Int>(0)

    @usableFromInline
    init(replayLimit: Int, replaysAfterTerminal: Bool, initial: [Value] = []) {
        self.replayLimit = replayLimit
        self.replaysAfterTerminal = replaysAfterTerminal
        var state = State()
        for value in initial { state.buffer.append(value, limit: replayLimit) }
        owner = OwnerState(state)
    }

    /// How many subscriptions are attached now.
    @usableFromInline
    var subscriberCount: Int { liveCount.load(ordering: .relaxed) }

    // MARK: Values

    @inlinable
    func send(_ value: Value) {
        if queue.tryAcquire() {
            deliver(value)
            queue.releaseAndDrain()
        } else {
            queue.enqueue { [self] in deliver(value) }
        }
    }

    /// Owner only.
    @inlinable
    func deliver(_ value: Value) {
        let state = owner.pointer
        if state.pointee.terminal != nil { return }
        if replayLimit > 0 { state.pointee.buffer.append(value, limit: replayLimit) }
        state.pointee.entries.withUnsafeBufferPointer { entries in
            for entry in entries where !entry.subscription.isDisposed {
                entry.observer.send(value)
            }
        }
    }

    // MARK: Completion

    @usableFromInline
    func send(completion: Completion<Failure>) {
        if queue.tryAcquire() {
            finish(completion)
            queue.releaseAndDrain()
        } else {
            queue.enqueue { [self] in finish(completion) }
        }
    }

    /// Owner only.
    @usableFromInline
    func finish(_ completion: Completion<Failure>) {
        let state = owner.pointer
        if state.pointee.terminal != nil { return }
        state.pointee.terminal = completion
        let entries = state.pointee.entries
        state.pointee.entries = []
        liveCount.subtract(entries.count, ordering: .relaxed)
        for entry in entries where !entry.subscription.isDisposed {
            entry.observer.send(completion: completion)
        }
    }

    // MARK: Subscriptions

    @usableFromInline
    func subscribe(_ observer: Observer<Value, Failure>) -> any Disposable {
        let subscription = SubjectSubscription(owner: self)
        observer.link?.attach(subscription)
        let entry = Entry(subscription: subscription, observer: observer)
        if queue.tryAcquire() {
            attach(entry)
            queue.releaseAndDrain()
        } else {
            queue.enqueue { [self] in attach(entry) }
        }
        return subscription
    }

    /// Owner only.
    private func attach(_ entry: Entry) {
        let state = owner.pointer
        if state.pointee.terminal == nil || replaysAfterTerminal {
            for value in state.pointee.buffer.elements {
                if entry.subscription.isDisposed { return }
                entry.observer.send(value)
            }
        }
        if entry.subscription.isDisposed { return }
        if let terminal = state.pointee.terminal {
            entry.observer.send(completion: terminal)
            return
        }
        state.pointee.entries.append(entry)
        liveCount.add(1, ordering: .relaxed)
    }

    @usableFromInline
    func detach(_ subscription: SubjectSubscription) {
        queue.enqueue { [self] in
            let state = owner.pointer
            if let index = state.pointee.entries.firstIndex(where: { $0.subscription === subscription }) {
                state.pointee.entries.remove(at: index)
                liveCount.subtract(1, ordering: .relaxed)
            }
        }
    }
}

/// The latest values a subject replays to new subscribers, oldest first.
@usableFromInline
struct ReplayBuffer<Value> {
    @usableFromInline var storage: [Value] = []
    @usableFromInline var start = 0

    @inlinable
    init() {}

    @inlinable
    mutating func append(_ value: Value, limit: Int) {
        if storage.count < limit {
            storage.append(value)
        } else {
            storage[start] = value
            start += 1
            if start == storage.count { start = 0 }
        }
    }

    var elements: [Value] {
        start == 0 ? storage : Array(storage[start...] + storage[..<start])
    }
}

/// Something a ``SubjectSubscription`` detaches from when disposed.
@usableFromInline
protocol SubscriptionDetaching: AnyObject, Sendable {
    func detach(_ subscription: SubjectSubscription)
}

/// One subscription to a subject: a cancelled flag and the disposable, in one small object that
/// does not depend on the value type.
@usableFromInline
final class SubjectSubscription: Disposable {
    @usableFromInline
    let disposed = Atomic<Bool>(false)
    private let owner: any SubscriptionDetaching

    init(owner: any SubscriptionDetaching) {
        self.owner = owner
    }

    @inlinable
    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    @usableFromInline
    func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        owner.detach(self)
    }
}
