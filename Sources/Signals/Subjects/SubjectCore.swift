import Synchronization

/// The machinery shared by the three subjects: an observer list and replay buffer touched only
/// by the owner of a ``DeliveryQueue``, so sends, subscriptions, disposals and completion are
/// serialized without a lock held while observers run.
@usableFromInline
final class SubjectCore<Value: Sendable, Failure: Error>: SubscriptionDetaching {
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

    @usableFromInline
    struct State {
        /// Each entry is retained once by the list (released on detach or completion).
        @usableFromInline var entries = EntryList<Entry>()
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
    @usableFromInline
    let replaysAfterTerminal: Bool
    @usableFromInline
    let liveCount = Atomic<Int>(0)

    @usableFromInline
    init(replayLimit: Int, replaysAfterTerminal: Bool, initial: [Value] = []) {
        self.replayLimit = replayLimit
        self.replaysAfterTerminal = replaysAfterTerminal
        var state = State()
        for value in initial { state.buffer.append(value, limit: replayLimit) }
        owner = OwnerState(state)
    }

    deinit {
        owner.pointer.pointee.entries.releaseAll()
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
        let state = owner.pointer
        if state.pointee.terminal != nil { return }
        if replayLimit > 0 { state.pointee.buffer.append(value, limit: replayLimit) }
        let entries = state.pointee.entries
        var index = 0
        while index < entries.count {
            entries[index]._withUnsafeGuaranteedRef { entry in
                if !entry.subscription.isDisposed { entry.observer.onValue(value) }
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
        let state = owner.pointer
        if state.pointee.terminal != nil { return }
        state.pointee.terminal = completion
        let entries = state.pointee.entries.takeAll()
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

    @inlinable
    func detach(_ subscription: SubjectSubscription) {
        if queue.tryAcquire() {
            remove(subscription)
            queue.releaseAndDrain()
        } else {
            queue.enqueue { [self] in remove(subscription) }
        }
    }

    /// Owner only.
    @inlinable
    func remove(_ subscription: SubjectSubscription) {
        if owner.pointer.pointee.entries.remove(where: { $0.subscription === subscription }) {
            liveCount.subtract(1, ordering: .relaxed)
        }
    }
}

/// A growable list of retained, unowned references, for owner-only hot loops: reading an entry
/// costs no reference counting.
@usableFromInline
struct EntryList<Element: AnyObject> {
    @usableFromInline var storage: UnsafeMutablePointer<Unmanaged<Element>>?
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    @inlinable
    init() {}

    @inlinable
    subscript(index: Int) -> Unmanaged<Element> {
        storage.unsafelyUnwrapped[index]
    }

    /// Appends `element`, retaining it.
    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity {
            let newCapacity = max(4, capacity * 2)
            let grown = UnsafeMutablePointer<Unmanaged<Element>>.allocate(capacity: newCapacity)
            if let storage {
                grown.moveInitialize(from: storage, count: count)
                storage.deallocate()
            }
            storage = grown
            capacity = newCapacity
        }
        (storage.unsafelyUnwrapped + count).initialize(to: .passRetained(element))
        count += 1
    }

    /// Removes (and releases) the first element matching `predicate`; returns whether one did.
    @inlinable
    mutating func remove(where predicate: (Element) -> Bool) -> Bool {
        guard let storage else { return false }
        for index in 0..<count where predicate(storage[index].takeUnretainedValue()) {
            let removed = (storage + index).move()
            // The ranges overlap: moveInitialize allows that; the slot at `index` is now free.
            (storage + index).moveInitialize(from: storage + index + 1, count: count - index - 1)
            count -= 1
            removed.release()
            return true
        }
        return false
    }

    /// Removes every element, handing over the list's references.
    mutating func takeAll() -> [Element] {
        guard let storage else { return [] }
        let elements = (0..<count).map { storage[$0].takeRetainedValue() }
        count = 0
        return elements
    }

    /// Releases every element and the storage.
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

    @usableFromInline
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
