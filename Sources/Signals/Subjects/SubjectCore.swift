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

    /// Detaches a disposed subscription in turn: at once when uncontended, otherwise after the
    /// delivery under way on another thread (so that once `dispose()` returns, the observer is
    /// not called again), or right after the current delivery when disposed from inside it. (When
    /// waiting would deadlock, it is handed to the delivering thread and `dispose` returns at
    /// once; that thread is waiting for this one.)
    @usableFromInline
    final func detach(_ subscription: SubjectSubscription) {
        if queue.tryAcquire() {
            remove(subscription)
            queue.releaseAndDrain()
        } else {
            queue.run { [self] in remove(subscription) }
        }
    }

    /// Owner only.
    final func remove(_ subscription: SubjectSubscription) {
        if subscribers.remove(subscription) { liveCount.subtract(1, ordering: .relaxed) }
    }

    /// Called when the subject object is released: nothing can send into this core or subscribe
    /// to it any more, so its subscribers' observers, and whatever they capture, are released
    /// now (in turn, after any delivery under way; no terminal event is sent), rather than kept
    /// alive by the cycle of core, entry and subscription until each subscription is disposed.
    /// A subscription disposed later finds no slot and does nothing.
    @usableFromInline
    final func releaseSubscribers() {
        if queue.tryAcquire() {
            forgetSubscribers()
            queue.releaseAndDrain()
        } else {
            queue.run { [self] in forgetSubscribers() }
        }
    }

    /// Owner only.
    private final func forgetSubscribers() {
        subscribers.releaseAll()
        liveCount.store(0, ordering: .relaxed)
    }
}

/// The machinery shared by the three subjects: an observer list and replay buffer touched only
/// by the owner of a ``DeliveryQueue``, so sends, subscriptions, disposals and completion are
/// serialized without a lock held while observers run.
@usableFromInline
final class SubjectCore<Value: Sendable, Failure: Error>: SubjectBase, @unchecked Sendable {
    // SAFETY: the stored state, `terminalEvent` and `buffer` (below `Entry`), is touched only by the
    // owner of `queue`.

    /// One attached subscription: its cancelled flag and its observer's two closures (not its
    /// link, which only `subscribe` uses), all `let`, so delivery can borrow them from an
    /// unowned reference without retaining anything.
    @usableFromInline
    final class Entry: Sendable {
        @usableFromInline let subscription: SubjectSubscription
        @usableFromInline let onValue: @Sendable (Value) -> Void
        @usableFromInline let onCompletion: @Sendable (Completion<Failure>) -> Void

        @usableFromInline
        init(subscription: SubjectSubscription, observer: Observer<Value, Failure>) {
            self.subscription = subscription
            self.onValue = observer.onValue
            self.onCompletion = observer.onCompletion
        }
    }

    /// The terminal event once sent: a ``TerminalEvent`` of this subject's `Failure`. Not a
    /// `Completion<Failure>?`: destroying a field of a generic type in the subject's `deinit`
    /// (which is never specialized) looked up that type's metadata: about 1,000 instructions
    /// for every subject freed, an eighth of W4's cost per inner stream.
    // SAFETY: touched only by the owner of `queue` (see DeliveryQueue).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var terminalEvent: AnyObject?
    /// Whether a subscriber arriving after the terminal event still gets the buffer first.
    @usableFromInline
    let replaysAfterTerminal: Bool
    /// How many latest values a new subscriber receives first: 0 for a publish subject, 1 for a
    /// behavior subject. (32 bits, more is kept as `Int32.max`: with the 32-bit fields of
    /// `buffer`, a subject is no larger than with an array and an index.)
    @usableFromInline
    let replayLimit: Int32
    // SAFETY: touched only by the owner of `queue` (see DeliveryQueue).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var buffer = ReplayBuffer()

    @usableFromInline
    init(replayLimit: Int, replaysAfterTerminal: Bool, initial: [Value] = []) {
        self.replaysAfterTerminal = replaysAfterTerminal
        self.replayLimit = Int32(clamping: replayLimit)
        super.init()
        if self.replayLimit > 0 { for value in initial { buffer.append(value, limit: self.replayLimit) } }
    }

    deinit {
        buffer.destroy(Value.self)
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
            sendInLine(value)
        }
    }

    /// The contended path of `send`, out of line so that the fast path stays small.
    @usableFromInline
    func sendInLine(_ value: Value) {
        queue.complete(enterInLine(value))
    }

    /// Takes a place in line for delivering `value` (see ``DeliveryQueue/enter(_:)``).
    @usableFromInline
    func enterInLine(_ value: Value) -> DeliveryQueue.Ticket {
        queue.enter { [self] in deliver(value) }
    }

    /// Owner only. Borrows each entry: no retain or release per delivery.
    @inlinable
    func deliver(_ value: Value) {
        if terminalEvent != nil { return }
        if replayLimit > 0 { buffer.append(value, limit: replayLimit) }
        let list = subscribers
        if list.capacity == 0 {
            // At most one subscriber, in the list itself.
            if let slot = list.single { deliver(value, to: slot) }
            return
        }
        var index = 0
        while index < list.slotCount {
            deliver(value, to: list[index])
            index += 1
        }
    }

    /// Owner only. Calls the slot's observer, borrowed, unless the slot is a hole or disposed.
    @inlinable
    func deliver(_ value: Value, to slot: SubscriberList.Slot) {
        // A hole's subscription is `SubscriberList.hole`, disposed from the start, so this one
        // check skips holes and disposed subscriptions alike; past it, `entry` is set.
        if !slot.subscription._withUnsafeGuaranteedRef({ $0.isDisposed }) {
            Unmanaged<Entry>.fromOpaque(slot.entry.unsafelyUnwrapped.toOpaque())._withUnsafeGuaranteedRef { $0.onValue(value) }
        }
    }

    // MARK: Completion

    @usableFromInline
    func send(completion: Completion<Failure>) {
        if queue.tryAcquire() {
            finish(completion)
            queue.releaseAndDrain()
        } else {
            queue.run { [self] in finish(completion) }
        }
    }

    /// Owner only.
    @usableFromInline
    func finish(_ completion: Completion<Failure>) {
        if terminalEvent != nil { return }
        terminalEvent = TerminalEvent(completion)
        let entries = subscribers.takeAll().map { unsafeDowncast($0, to: Entry.self) }
        liveCount.subtract(entries.count, ordering: .relaxed)
        for entry in entries where !entry.subscription.isDisposed {
            entry.onCompletion(completion)
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
            attachInLine(entry)
        }
        return subscription
    }

    @usableFromInline
    func attachInLine(_ entry: Entry) {
        queue.run { [self] in attach(entry) }
    }

    /// Owner only.
    @inlinable
    func attach(_ entry: Entry) {
        let terminal = terminalEvent.map { unsafeDowncast($0, to: TerminalEvent<Failure>.self).completion }
        if terminal == nil || replaysAfterTerminal {
            // Nothing changes the buffer meanwhile: what the observer sends into this subject
            // is queued behind this turn.
            var index = 0
            while index < Int(buffer.count) {
                if entry.subscription.isDisposed { return }
                entry.onValue(buffer.element(at: index, as: Value.self))
                index += 1
            }
        }
        if entry.subscription.isDisposed { return }
        if let terminal {
            entry.onCompletion(terminal)
            return
        }
        subscribers.append(entry, subscription: entry.subscription)
        liveCount.add(1, ordering: .relaxed)
    }
}

/// A subject's terminal event, kept in an object so that the subject's field is not generic.
@usableFromInline
final class TerminalEvent<Failure: Error>: Sendable {
    @usableFromInline let completion: Completion<Failure>

    @usableFromInline
    init(_ completion: Completion<Failure>) {
        self.completion = completion
    }
}

/// The subscribers of a subject, in subscription order, for owner-only hot loops: each slot
/// holds its entry retained once and its subscription unowned (the entry keeps it alive), and
/// reading a slot costs no reference counting. Not generic, so removal never needs type
/// metadata.
///
/// Appending and removing are O(1) (amortized) at any number of subscribers: each subscription
/// knows its slot, a removed slot becomes a hole that delivery skips, and the holes are squeezed
/// out (renumbering the subscriptions) once they are more than half the slots. Removing the
/// last slot shrinks the list at once, so a subscribe-then-dispose leaves no hole.
///
/// One subscriber, the common case (a chain's source, a property bound to one view), needs no
/// memory of its own: until a second one arrives, the slot is `single`, inside the list
/// (`capacity` 0), and delivery to it is one check and one call.
@usableFromInline
struct SubscriberList {
    @usableFromInline
    struct Slot {
        /// `nil` for a hole left by a removed subscription.
        @usableFromInline var entry: Unmanaged<AnyObject>?
        /// ``SubscriberList/hole`` for a hole.
        @usableFromInline var subscription: Unmanaged<SubjectSubscription>

        /// A hole.
        static var hole: Slot { Slot(entry: nil, subscription: .passUnretained(SubscriberList.hole)) }
    }

    /// What a hole's slot points to instead of the removed subscription (which may be freed
    /// once its entry is released): a subscription disposed from the start, so delivery skips
    /// a hole with the check that skips a disposed subscription, at no extra cost per slot.
    static let hole: SubjectSubscription = {
        let hole = SubjectSubscription(owner: SubjectBase())
        hole.disposed.store(true, ordering: .releasing)
        return hole
    }()

    /// The slots once a second subscriber arrived (`capacity` above 0).
    @usableFromInline var storage: UnsafeMutablePointer<Slot>?
    /// The only slot while `capacity` is 0, if there is one. (Not a hole when empty: making
    /// the hole's subscription creates a subject, hence a list.)
    @usableFromInline var single: Slot?
    /// Slots in use, holes included. (32-bit counts keep a subject small.)
    @usableFromInline var count: Int32 = 0
    /// Room in `storage`; 0 while the list holds at most one slot, in `single`.
    @usableFromInline var capacity: Int32 = 0
    /// Slots that are holes (only in `storage`: removing the single slot empties the list).
    @usableFromInline var holes: Int32 = 0

    @usableFromInline
    init() {}

    /// The slot at `index` (below `count`), from `storage`. Only when `capacity` is above 0.
    @inlinable
    subscript(index: Int) -> Slot {
        storage.unsafelyUnwrapped[index]
    }

    /// Slots in use, holes included, as an `Int` for loops.
    @inlinable
    var slotCount: Int { Int(count) }

    /// Appends `entry`, retaining it.
    @usableFromInline
    mutating func append(_ entry: AnyObject, subscription: SubjectSubscription) {
        let slot = Slot(entry: .passRetained(entry), subscription: .passUnretained(subscription))
        if capacity == 0 {
            if count == 0 {
                single = slot
                subscription.slot = 0
                count = 1
                return
            }
            // A second subscriber: the single slot moves into storage.
            let grown = UnsafeMutablePointer<Slot>.allocate(capacity: 2)
            grown.initialize(to: single.unsafelyUnwrapped)
            single = nil
            storage = grown
            capacity = 2
        } else if count == capacity {
            let newCapacity = capacity * 2
            let grown = UnsafeMutablePointer<Slot>.allocate(capacity: Int(newCapacity))
            if let storage {
                grown.moveInitialize(from: storage, count: Int(count))
                storage.deallocate()
            }
            storage = grown
            capacity = newCapacity
        }
        (storage.unsafelyUnwrapped + Int(count)).initialize(to: slot)
        subscription.slot = count
        count += 1
    }

    /// Removes (and releases) the slot of `subscription`; returns whether there was one.
    mutating func remove(_ subscription: SubjectSubscription) -> Bool {
        let index = Int(subscription.slot)
        let identity = Unmanaged.passUnretained(subscription).toOpaque()
        guard index >= 0, index < Int(count) else { return false }
        guard let storage else {
            guard let slot = single, slot.subscription.toOpaque() == identity, let entry = slot.entry else { return false }
            subscription.slot = -1
            single = nil
            count = 0
            // Last, with the list consistent: releasing the entry can run user deinits.
            entry.release()
            return true
        }
        guard storage[index].subscription.toOpaque() == identity, let entry = storage[index].entry else { return false }
        subscription.slot = -1
        if index == Int(count) - 1 {
            // The last slot goes at once, and so do the holes before it.
            count -= 1
            (storage + index).deinitialize(count: 1)
            while count > 0, storage[Int(count) - 1].entry == nil {
                count -= 1
                holes -= 1
                (storage + Int(count)).deinitialize(count: 1)
            }
        } else {
            // Any other slot becomes a hole, squeezed out when holes are more than half the list.
            storage[index] = .hole
            holes += 1
        }
        if holes > 0, holes * 2 > count { compact() }
        // Last, with the list consistent: releasing the entry can run user deinits.
        entry.release()
        return true
    }

    /// Squeezes out the holes, keeping the order, and renumbers the subscriptions.
    private mutating func compact() {
        guard let storage else { return }
        var kept: Int32 = 0
        for index in 0..<Int(count) {
            let slot = (storage + index).move()
            guard slot.entry != nil else { continue }
            slot.subscription._withUnsafeGuaranteedRef { $0.slot = kept }
            (storage + Int(kept)).initialize(to: slot)
            kept += 1
        }
        count = kept
        holes = 0
    }

    /// Removes every slot, handing each entry to `body` with the list's reference to it (in
    /// order). The storage is kept for later appends.
    /// `ending`: the subscriptions are over (their subject was released), so each is marked
    /// disposed, and a later `dispose()` returns at once instead of taking the subject's turn to
    /// find no slot.
    private mutating func removeAll(ending: Bool = false, _ body: (Unmanaged<AnyObject>) -> Void) {
        let slots = count
        count = 0
        holes = 0
        guard let storage else {
            let slot = single
            single = nil
            if slots == 1, let slot, let entry = slot.entry {
                slot.subscription._withUnsafeGuaranteedRef { Self.unlist($0, ending: ending) }
                body(entry)
            }
            return
        }
        for index in 0..<Int(slots) {
            let slot = (storage + index).move()
            if let entry = slot.entry {
                slot.subscription._withUnsafeGuaranteedRef { Self.unlist($0, ending: ending) }
                body(entry)
            }
        }
    }

    @inline(__always)
    private static func unlist(_ subscription: SubjectSubscription, ending: Bool) {
        subscription.slot = -1
        if ending { subscription.disposed.store(true, ordering: .releasing) }
    }

    /// Removes every slot, handing over the list's references to the entries (in order).
    mutating func takeAll() -> [AnyObject] {
        var entries: [AnyObject] = []
        entries.reserveCapacity(Int(count - holes))
        removeAll { entries.append($0.takeRetainedValue()) }
        return entries
    }

    /// Releases every entry and the storage (without building the array `takeAll` returns: a
    /// subject is freed far more often than it completes).
    mutating func releaseAll() {
        removeAll(ending: true) { $0.release() }
        storage?.deallocate()
        storage = nil
        capacity = 0
    }
}

/// The latest values a subject replays to new subscribers, oldest first: a ring in memory of
/// its own, touched only by the owner of the subject's queue.
///
/// Not an array: storing a value into an array checks its uniqueness first, a call per value
/// on a behavior subject's hot path, and this ring is never shared. Not generic either: the
/// memory is raw and each method is told the value type, so a subject's generic code (its
/// `init` and `deinit`, which are not specialized) never looks up the buffer's type metadata,
/// and the buffer is no larger than the array and index it replaces. The subject frees it
/// (``destroy(_:)``).
@usableFromInline
struct ReplayBuffer {
    /// Where the oldest value is (0 until the ring is full).
    @usableFromInline var start: Int32 = 0
    /// How many values are kept now, and how many fit in `storage`.
    @usableFromInline var count: Int32 = 0
    @usableFromInline var capacity: Int32 = 0
    /// Room for `capacity` values of the subject's value type.
    @usableFromInline var storage: UnsafeMutableRawPointer?

    @inlinable
    init() {}

    /// Keeps `value`, dropping the oldest when `limit` values are kept. Always with the same
    /// `Value` and `limit`, and `limit` above 0.
    @inlinable
    mutating func append<Value>(_ value: Value, limit: Int32) {
        if count == limit {
            // Full: the newest value takes the oldest one's place.
            (storage.unsafelyUnwrapped.assumingMemoryBound(to: Value.self) + Int(start)).pointee = value
            start += 1
            if start == limit { start = 0 }
            return
        }
        if count == capacity { grow(Value.self, limit: limit) }
        (storage.unsafelyUnwrapped.assumingMemoryBound(to: Value.self) + Int(count)).initialize(to: value)
        count += 1
    }

    /// Makes room for more values (doubling, up to `limit`); only while the ring is not full,
    /// so the values are in order from index 0.
    @usableFromInline
    mutating func grow<Value>(_: Value.Type, limit: Int32) {
        let newCapacity = Int32(min(Int(limit), max(1, Int(capacity) * 2)))
        let grown = UnsafeMutablePointer<Value>.allocate(capacity: Int(newCapacity))
        if let storage {
            let old = storage.assumingMemoryBound(to: Value.self)
            grown.moveInitialize(from: old, count: Int(count))
            old.deallocate()
        }
        storage = UnsafeMutableRawPointer(grown)
        capacity = newCapacity
    }

    /// The kept value at `index` (below `count`), oldest first.
    @inlinable
    func element<Value>(at index: Int, as _: Value.Type) -> Value {
        let position = Int(start) + index
        return storage.unsafelyUnwrapped.assumingMemoryBound(to: Value.self)[position < Int(count) ? position : position - Int(count)]
    }

    /// Deinitializes the values and frees the memory.
    @usableFromInline
    mutating func destroy<Value>(_: Value.Type) {
        guard let storage else { return }
        let values = storage.assumingMemoryBound(to: Value.self)
        values.deinitialize(count: Int(count))
        values.deallocate()
        self.storage = nil
        count = 0
        capacity = 0
        start = 0
    }
}

/// One subscription to a subject: a cancelled flag and the disposable, in one small object that
/// does not depend on the value type.
@usableFromInline
// SAFETY: `disposed` is atomic, `owner` immutable, and `slot` owner-only (see below).
final class SubjectSubscription: Disposable, @unchecked Sendable {
    @usableFromInline
    let disposed = Atomic<Bool>(false)
    /// Where the subscription sits in its subject's ``SubscriberList`` (-1: not in it).
    // SAFETY: read and written only by the owner of the subject's queue (list operations).
    @exclusivity(unchecked) nonisolated(unsafe) var slot: Int32 = -1
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
