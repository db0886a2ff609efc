import Synchronization

/// What the three subjects share that does not depend on the value type: the delivery queue,
/// the subscriber list and the count. Disposing a subscription is a plain, non-generic call on
/// this base, so it never runs unspecialized generic code.
@usableFromInline
class SubjectBase: DeliveryQueue, @unchecked Sendable {
    // SAFETY: `subscribers` is touched only by the owner of the queue (see DeliveryQueue);
    // `liveCount` is atomic.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var subscribers = SubscriberList()
    @usableFromInline let liveCount = Atomic<Int>(0)

    @usableFromInline
    override init() {}

    deinit {
        subscribers.releaseAll()
    }

    /// Detaches a disposed subscription: at once when uncontended, otherwise in the owner turn.
    @usableFromInline
    final func detach(_ subscription: SubjectSubscription) {
        if queue.tryAcquire() {
            remove(subscription)
            queue.releaseAndDrain()
        } else {
            queue.enqueue { [self] in remove(subscription) }
        }
    }

    /// Owner only.
    final func remove(_ subscription: SubjectSubscription) {
        if subscribers.remove(subscription) { liveCount.subtract(1, ordering: .relaxed) }
    }
}

/// The machinery shared by the three subjects: an observer list and replay buffer touched only
/// by the owner of a ``DeliveryQueue``, so sends, subscriptions, disposals and completion are
/// serialized without a lock held while observers run.
@usableFromInline
final class SubjectCore<Value: Sendable, Failure: Error>: SubjectBase, @unchecked Sendable {
    // SAFETY: the stored state, `terminal` and `buffer` (below `Entry`), is touched only by the
    // owner of `queue`.

    /// One attached subscription: its cancelled flag and its observer, both `let`, so delivery
    /// can borrow them from an unowned reference without retaining anything.
    @usableFromInline
    final class Entry: Sendable {
        @usableFromInline let subscription: SubjectSubscription
        @usableFromInline let observer: Observer<Value, Failure>

        @usableFromInline
        init(subscription: SubjectSubscription, observer: Observer<Value, Failure>) {
            self.subscription = subscription
            self.observer = observer
        }
    }

    // SAFETY: touched only by the owner of `queue` (see DeliveryQueue).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var terminal: Completion<Failure>?
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var buffer = ReplayBuffer<Value>()
    /// How many latest values a new subscriber receives first (0 for a publish subject).
    @usableFromInline
    let replayLimit: Int
    /// Whether a subscriber arriving after the terminal event still gets the buffer first.
    @usableFromInline
    let replaysAfterTerminal: Bool

    @usableFromInline
    init(replayLimit: Int, replaysAfterTerminal: Bool, initial: [Value] = []) {
        self.replayLimit = replayLimit
        self.replaysAfterTerminal = replaysAfterTerminal
        super.init()
        for value in initial { buffer.append(value, limit: replayLimit) }
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

    /// Owner only. Borrows each entry: no retain or release per delivery.
    @inlinable
    func deliver(_ value: Value) {
        if terminal != nil { return }
        if replayLimit > 0 { buffer.append(value, limit: replayLimit) }
        let list = subscribers
        var index = 0
        while index < list.count {
            let slot = list[index]
            if !slot.subscription._withUnsafeGuaranteedRef({ $0.isDisposed }) {
                Unmanaged<Entry>.fromOpaque(slot.entry.toOpaque())._withUnsafeGuaranteedRef { $0.observer.onValue(value) }
            }
            index += 1
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
        if terminal != nil { return }
        terminal = completion
        let entries = subscribers.takeAll().map { unsafeDowncast($0, to: Entry.self) }
        liveCount.subtract(entries.count, ordering: .relaxed)
        for entry in entries where !entry.subscription.isDisposed {
            entry.observer.send(completion: completion)
        }
    }

    // MARK: Subscriptions

    @inlinable
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
    @inlinable
    func attach(_ entry: Entry) {
        if terminal == nil || replaysAfterTerminal {
            if replayLimit > 0 {
                for value in buffer.elements {
                    if entry.subscription.isDisposed { return }
                    entry.observer.send(value)
                }
            }
        }
        if entry.subscription.isDisposed { return }
        if let terminal {
            entry.observer.send(completion: terminal)
            return
        }
        subscribers.append(entry, subscription: entry.subscription)
        liveCount.add(1, ordering: .relaxed)
    }
}

/// The subscribers of a subject, for owner-only hot loops: each slot holds its entry retained
/// once and its subscription unowned (the entry keeps it alive), and reading a slot costs no
/// reference counting. Not generic, so removal never needs type metadata.
@usableFromInline
struct SubscriberList {
    @usableFromInline
    struct Slot {
        @usableFromInline let entry: Unmanaged<AnyObject>
        @usableFromInline let subscription: Unmanaged<SubjectSubscription>
    }

    @usableFromInline var storage: UnsafeMutablePointer<Slot>?
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    @usableFromInline
    init() {}

    @inlinable
    subscript(index: Int) -> Slot {
        storage.unsafelyUnwrapped[index]
    }

    /// Appends `entry`, retaining it.
    @usableFromInline
    mutating func append(_ entry: AnyObject, subscription: SubjectSubscription) {
        if count == capacity {
            let newCapacity = max(4, capacity * 2)
            let grown = UnsafeMutablePointer<Slot>.allocate(capacity: newCapacity)
            if let storage {
                grown.moveInitialize(from: storage, count: count)
                storage.deallocate()
            }
            storage = grown
            capacity = newCapacity
        }
        (storage.unsafelyUnwrapped + count).initialize(to: Slot(entry: .passRetained(entry), subscription: .passUnretained(subscription)))
        count += 1
    }

    /// Removes (and releases) the slot of `subscription`; returns whether there was one.
    mutating func remove(_ subscription: SubjectSubscription) -> Bool {
        guard let storage else { return false }
        let target = Unmanaged.passUnretained(subscription).toOpaque()
        for index in 0..<count where storage[index].subscription.toOpaque() == target {
            let removed = (storage + index).move()
            // The ranges overlap: moveInitialize allows that; the slot at `index` is now free.
            (storage + index).moveInitialize(from: storage + index + 1, count: count - index - 1)
            count -= 1
            removed.entry.release()
            return true
        }
        return false
    }

    /// Removes every slot, handing over the list's references to the entries.
    mutating func takeAll() -> [AnyObject] {
        guard let storage else { return [] }
        let entries = (0..<count).map { storage[$0].entry.takeRetainedValue() }
        count = 0
        return entries
    }

    /// Releases every entry and the storage.
    mutating func releaseAll() {
        _ = takeAll()
        storage?.deallocate()
        storage = nil
        capacity = 0
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

    @inlinable
    var elements: [Value] {
        start == 0 ? storage : Array(storage[start...] + storage[..<start])
    }
}

/// One subscription to a subject: a cancelled flag and the disposable, in one small object that
/// does not depend on the value type.
@usableFromInline
final class SubjectSubscription: Disposable {
    @usableFromInline
    let disposed = Atomic<Bool>(false)
    private let owner: SubjectBase

    @usableFromInline
    init(owner: SubjectBase) {
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
