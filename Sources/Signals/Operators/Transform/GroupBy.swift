/// One group of ``Signal/grouped(by:)``: the key its values share, and the stream of them.
public struct GroupedSignal<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    /// The key every value of this group has.
    public let key: Key
    /// The group's values, from the first one on (hot: subscribe when the group arrives).
    public let signal: Signal<Value, Failure>
}

extension Signal {
    /// Splits the stream into groups by key: emits a ``GroupedSignal`` the first time a key
    /// appears, then sends each value to its key's group (RxSwift's `groupBy`).
    ///
    /// ```text
    /// self:    -a-B-c-D-|
    /// groups:  -l-u-----|
    /// l:       -a---c---|
    /// u:       ---B---D-|
    /// ```
    ///
    /// (Above, the key is "l" for a lowercase letter and "u" for an uppercase one.) A group is
    /// emitted before its first value is sent to it, so subscribing to `group.signal` when the
    /// group arrives receives every value of that key; a group's stream is hot, so a later
    /// subscriber sees only later values. When this stream completes or fails, every group does
    /// the same, and then the result. `key` runs once per value, with no lock held (only the key's own `hash` and `==` run under the table's lock).
    ///
    /// The groups live on this stream's subscription: disposing the result ends the supply of
    /// every group (they receive nothing more, and do not complete).
    public func grouped<Key: Hashable & Sendable>(
        by key: @escaping @Sendable (Value) -> Key
    ) -> Signal<GroupedSignal<Key, Value, Failure>, Failure> {
        typealias Group = GroupedSignal<Key, Value, Failure>
        return Signal<Group, Failure>({ (observer: Observer<Group, Failure>) -> any Disposable in
            // Events of the source arrive one at a time (the event grammar), so the table is
            // only read and written from one delivery at a time; the lock makes that visible
            // to the compiler and to TSan. No closure of the caller's runs under it.
            let groups = Locked<[Key: PublishSubject<Value, Failure>]>([:])
            return self.sink(
                value: { value in
                    let groupKey = key(value)
                    let (subject, isNew) = groups.withLock { table -> (PublishSubject<Value, Failure>, Bool) in
                        if let subject = table[groupKey] { return (subject, false) }
                        let subject = PublishSubject<Value, Failure>()
                        table[groupKey] = subject
                        return (subject, true)
                    }
                    if isNew { observer.send(GroupedSignal(key: groupKey, signal: subject.signal)) }
                    subject.send(value)
                },
                completion: { completion in
                    let all = groups.withLock { table in Array(table.values) }
                    for subject in all { subject.send(completion: completion) }
                    observer.send(completion: completion)
                }
            )
        })
    }
}
