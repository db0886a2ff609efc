import MallocCounter
import OpenCombine
import Signals

// design.md's workloads W1–W8, each three ways: this toolkit, OpenCombine (where it has the
// operator), and hand-written closures (an array of closures as the subject, closures as
// operators, no locks: the reference for "close to the limit").

/// The hand-written reference subject: an array of closures, no locks, no grammar.
final class ClosureSubject<Value> {
    var observers: [(Value) -> Void] = []

    func send(_ value: Value) {
        for observer in observers { observer(value) }
    }
}

enum Workloads {
    // MARK: W1: subject → map(+1) → filter(even) → sink(sum)

    static func w1() -> WorkloadResult {
        let sends = 1_000_000
        let toolkit = Harness.measure(operations: sends) {
            let subject = PublishSubject<Int, Never>()
            let total = Total()
            let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { total.value &+= $0 })
            return {
                for index in 0..<sends { subject.send(index) }
                subscription.dispose()
                return total.value
            }
        }
        let open = Harness.measure(operations: sends) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellable = subject.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink { total.value &+= $0 }
            return {
                for index in 0..<sends { subject.send(index) }
                cancellable.cancel()
                return total.value
            }
        }
        let closures = Harness.measure(operations: sends) {
            let total = Total()
            var observers: [(Int) -> Void] = []
            let sink: (Int) -> Void = { total.value &+= $0 }
            let filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
            observers.append { filter($0 + 1) }
            return {
                for index in 0..<sends { for observer in observers { observer(index) } }
                return total.value
            }
        }
        return WorkloadResult(id: "W1", name: "subject → map → filter → sink", unit: "ns/send", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W2: subscribe then dispose on one subject

    static func w2() -> WorkloadResult {
        let pairs = 100_000
        let toolkit = Harness.measure(operations: pairs) {
            let subject = PublishSubject<Int, Never>()
            return {
                for _ in 0..<pairs { subject.signal.sink(value: { _ in }).dispose() }
                return subject.subscriberCount + pairs
            }
        }
        let open = Harness.measure(operations: pairs) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            return {
                for _ in 0..<pairs { subject.sink { _ in }.cancel() }
                return pairs
            }
        }
        let closures = Harness.measure(operations: pairs) {
            final class Subject {
                var observers: [(id: Int, observer: (Int) -> Void)] = []
                var nextID = 0
                func subscribe(_ observer: @escaping (Int) -> Void) -> Int {
                    nextID += 1
                    observers.append((nextID, observer))
                    return nextID
                }
                func dispose(_ id: Int) { observers.removeAll { $0.id == id } }
            }
            let subject = Subject()
            return {
                for _ in 0..<pairs { subject.dispose(subject.subscribe { _ in }) }
                return subject.observers.count + pairs
            }
        }
        return WorkloadResult(id: "W2", name: "subscribe + dispose on one subject", unit: "ns/pair", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W3: combineLatest(a, b), alternating sends, sink sums

    static func w3() -> WorkloadResult {
        let sends = 500_000
        let toolkit = Harness.measure(operations: sends) {
            let a = PublishSubject<Int, Never>(), b = PublishSubject<Int, Never>()
            let total = Total()
            let subscription = a.signal.combineLatest(b.signal).sink(value: { total.value &+= $0.0 &+ $0.1 })
            return {
                for index in 0..<sends { if index & 1 == 0 { a.send(index) } else { b.send(index) } }
                subscription.dispose()
                return total.value
            }
        }
        let closures = Harness.measure(operations: sends) {
            final class Latest { var a: Int?; var b: Int? }
            let total = Total()
            let a = ClosureSubject<Int>(), b = ClosureSubject<Int>(), latest = Latest()
            let sink: (Int, Int) -> Void = { total.value &+= $0 &+ $1 }
            a.observers.append { value in latest.a = value; if let other = latest.b { sink(value, other) } }
            b.observers.append { value in latest.b = value; if let other = latest.a { sink(other, value) } }
            return {
                for index in 0..<sends { if index & 1 == 0 { a.send(index) } else { b.send(index) } }
                return total.value
            }
        }
        return WorkloadResult(id: "W3", name: "combineLatest(a, b)", unit: "ns/send", toolkit: toolkit, openCombine: nil, closures: closures, note: "OpenCombine 0.14 has no combineLatest")
    }

    // MARK: W4: outer subject of 10,000 inner subjects, switchToLatest, 50 values each

    static func w4() -> WorkloadResult {
        let inners = 10_000, values = 50
        let operations = inners * values
        let toolkit = Harness.measure(operations: operations) {
            let outer = PublishSubject<Signal<Int, Never>, Never>()
            let subjects = (0..<inners).map { _ in PublishSubject<Int, Never>() }
            let total = Total()
            let subscription = outer.signal.switchToLatest().sink(value: { total.value &+= $0 })
            return {
                for subject in subjects {
                    outer.send(subject.signal)
                    for value in 0..<values { subject.send(value) }
                }
                subscription.dispose()
                return total.value
            }
        }
        let open = Harness.measure(operations: operations) {
            let outer = OpenCombine.PassthroughSubject<OpenCombine.PassthroughSubject<Int, Never>, Never>()
            let subjects = (0..<inners).map { _ in OpenCombine.PassthroughSubject<Int, Never>() }
            let total = Total()
            let cancellable = outer.switchToLatest().sink { total.value &+= $0 }
            return {
                for subject in subjects {
                    outer.send(subject)
                    for value in 0..<values { subject.send(value) }
                }
                cancellable.cancel()
                return total.value
            }
        }
        let closures = Harness.measure(operations: operations) {
            // Switching unregisters the forwarding closure from the old inner subject and
            // registers it with the new one.
            final class Switch { var current: ClosureSubject<Int>? }
            let total = Total()
            let outer = ClosureSubject<ClosureSubject<Int>>()
            let subjects = (0..<inners).map { _ in ClosureSubject<Int>() }
            let state = Switch()
            let forward: (Int) -> Void = { total.value &+= $0 }
            outer.observers.append { inner in
                state.current?.observers.removeAll()
                state.current = inner
                inner.observers.append(forward)
            }
            return {
                for subject in subjects {
                    outer.send(subject)
                    for value in 0..<values { subject.send(value) }
                }
                return total.value
            }
        }
        return WorkloadResult(id: "W4", name: "switchToLatest over 10,000 inners", unit: "ns/inner value", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W5: mutable property set, one observer

    static func w5() -> WorkloadResult {
        let sets = 1_000_000
        let toolkit = Harness.measure(operations: sets) {
            let property = MutableProperty(0)
            let total = Total()
            let subscription = property.signal.sink(value: { total.value &+= $0 })
            return {
                for index in 0..<sets { property.value = index }
                subscription.dispose()
                return total.value
            }
        }
        let open = Harness.measure(operations: sets) {
            let subject = OpenCombine.CurrentValueSubject<Int, Never>(0)
            let total = Total()
            let cancellable = subject.sink { total.value &+= $0 }
            return {
                for index in 0..<sets { subject.value = index }
                cancellable.cancel()
                return total.value
            }
        }
        let closures = Harness.measure(operations: sets) {
            final class Property {
                var observers: [(Int) -> Void] = []
                var value = 0 { didSet { for observer in observers { observer(value) } } }
            }
            let property = Property()
            let total = Total()
            property.observers.append { total.value &+= $0 }
            return {
                for index in 0..<sets { property.value = index }
                return total.value
            }
        }
        return WorkloadResult(id: "W5", name: "mutable property set, one observer", unit: "ns/set", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W6: merge of 8 subjects, round-robin sends

    static func w6() -> WorkloadResult {
        let sends = 1_000_000
        let toolkit = Harness.measure(operations: sends) {
            let subjects = (0..<8).map { _ in PublishSubject<Int, Never>() }
            let total = Total()
            let subscription = Signal.merge(subjects.map(\.signal)).sink(value: { total.value &+= $0 })
            return {
                for index in 0..<sends { subjects[index & 7].send(index) }
                subscription.dispose()
                return total.value
            }
        }
        let closures = Harness.measure(operations: sends) {
            let total = Total()
            let merged: (Int) -> Void = { total.value &+= $0 }
            let subjects = (0..<8).map { _ in ClosureSubject<Int>() }
            for subject in subjects { subject.observers.append(merged) }
            return {
                for index in 0..<sends { subjects[index & 7].send(index) }
                return total.value
            }
        }
        return WorkloadResult(id: "W6", name: "merge of 8 subjects", unit: "ns/send", toolkit: toolkit, openCombine: nil, closures: closures, note: "OpenCombine 0.14 has no merge")
    }

    // MARK: W7: one subject, 100 subscribers

    static func w7() -> WorkloadResult {
        let sends = 10_000, subscribers = 100
        let operations = sends * subscribers
        let toolkit = Harness.measure(operations: operations) {
            let subject = PublishSubject<Int, Never>()
            let total = Total()
            let subscriptions = (0..<subscribers).map { _ in subject.signal.sink(value: { total.value &+= $0 }) }
            return {
                for index in 0..<sends { subject.send(index) }
                subscriptions.forEach { $0.dispose() }
                return total.value
            }
        }
        let open = Harness.measure(operations: operations) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellables = (0..<subscribers).map { _ in subject.sink { total.value &+= $0 } }
            return {
                for index in 0..<sends { subject.send(index) }
                cancellables.forEach { $0.cancel() }
                return total.value
            }
        }
        let closures = Harness.measure(operations: operations) {
            let total = Total()
            let observers: [(Int) -> Void] = (0..<subscribers).map { _ in { total.value &+= $0 } }
            return {
                for index in 0..<sends { for observer in observers { observer(index) } }
                return total.value
            }
        }
        return WorkloadResult(id: "W7", name: "one subject, 100 subscribers", unit: "ns/delivery", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W8: live chains, heap per chain

    struct Heap {
        var bytes: Double
        var allocations: Double
    }

    static func w8() -> (toolkit: Heap, openCombine: Heap, closures: Heap) {
        let chains = 100_000
        func measure(_ make: () -> AnyObject) -> Heap {
            var live: [AnyObject] = []
            live.reserveCapacity(chains)
            mc_reset()
            for _ in 0..<chains { live.append(make()) }
            let heap = Heap(bytes: Double(mc_bytes()) / Double(chains), allocations: Double(mc_allocations()) / Double(chains))
            withExtendedLifetime(live) {}
            return heap
        }
        final class Holder {
            let parts: [Any]
            init(_ parts: [Any]) { self.parts = parts }
        }
        let toolkit = measure {
            let subject = PublishSubject<Int, Never>()
            let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { _ in })
            return Holder([subject, subscription])
        }
        let open = measure {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let cancellable = subject.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink { _ in }
            return Holder([subject, cancellable])
        }
        let closures = measure {
            final class Subject { var observers: [(Int) -> Void] = [] }
            let subject = Subject()
            let sink: (Int) -> Void = { _ in }
            let filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
            subject.observers.append { filter($0 + 1) }
            return subject
        }
        return (toolkit, open, closures)
    }
}
