import PropertyBased
import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Transform/GroupBy.swift`: its laws on random inputs and
// its own behaviour.

@Suite struct GroupByTests: OperatorLawChecks {
    static let values = OperatorLawInputs.values

    /// grouped(by:) partitions the values by key, each group in order, groups in order of their
    /// first value; every group completes with the source.
    @Test(.shrinking) func groupedPartitionsByKey() async {
        await propertyCheck(count: 300, input: Self.values, Gen.int(in: 1...5)) { values, modulus in
            let groups = Locked<[(key: Int, values: Locked<[Int]>, completed: Locked<Bool>)]>([])
            let outer = Signal<Int, Never>(sequence: values).grouped { (($0 % modulus) + modulus) % modulus }.sink(value: { group in
                let entry = (key: group.key, values: Locked<[Int]>([]), completed: Locked(false))
                groups.withLock { $0.append(entry) }
                _ = group.signal.sink(value: { value in entry.values.withLock { $0.append(value) } },
                                      completion: { _ in entry.completed.withLock { $0 = true } })
            })
            defer { outer.dispose() }
            var expectedKeys: [Int] = []
            var expected: [Int: [Int]] = [:]
            for value in values {
                let key = ((value % modulus) + modulus) % modulus
                if expected[key] == nil { expectedKeys.append(key) }
                expected[key, default: []].append(value)
            }
            let seen = groups.withLock { $0 }
            #expect(seen.map(\.key) == expectedKeys)
            for group in seen {
                #expect(group.values.value == expected[group.key])
                #expect(group.completed.value)
            }
        }
    }

    /// A failure reaches every group, then the result.
    @Test func groupedForwardsAFailureToEveryGroup() {
        let source = PublishSubject<String, TestError>()
        let failures = Locked<[String]>([])
        let outer = source.signal.grouped { $0.count }.sink(
            value: { group in
                _ = group.signal.sink(completion: { completion in
                    if case .failed = completion { failures.withLock { $0.append("group \(group.key)") } }
                })
            },
            completion: { completion in
                if case .failed = completion { failures.withLock { $0.append("outer") } }
            }
        )
        defer { outer.dispose() }
        source.send("a")
        source.send("bb")
        source.send("c")
        source.sendFailed(TestError())
        #expect(failures.value.sorted() == ["group 1", "group 2", "outer"])
        #expect(failures.value.last == "outer", "the groups first, then the result")
    }

    /// As documented: disposing the result ends every group's supply; a group receives nothing
    /// more, and does not complete.
    @Test func disposingTheResultEndsEveryGroupsSupply() {
        let source = PublishSubject<String, Never>()
        let received = Locked<[String]>([])
        let completed = Locked(false)
        let groups = Locked<[any Disposable]>([])
        let outer = source.signal.grouped { $0.count }.sink(value: { group in
            let subscription = group.signal.sink(value: { value in received.withLock { $0.append(value) } },
                                                 completion: { _ in completed.withLock { $0 = true } })
            groups.withLock { $0.append(subscription) }
        })
        source.send("a")
        outer.dispose()
        source.send("b")
        source.sendCompleted()
        #expect(received.value == ["a"])
        #expect(!completed.value)
        #expect(source.subscriberCount == 0, "the source subscription ended with the result")
        for group in groups.value { group.dispose() }
    }
}
