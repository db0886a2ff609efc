import MallocCounter
import OpenCombine
import Signals

// design.md's workloads W1–W8, each three ways: this toolkit, OpenCombine (its own operator, or
// the nearest composition of its built-ins where 0.14 lacks one), and hand-written closures
// (closures as the subject's observers and as operators, no locks: the reference for "close to
// the limit"). The three columns of a workload run interleaved (see `Harness.measure`).

/// The hand-written reference subject for delivery: an array of closures, no locks, no
/// grammar, no way to unsubscribe one observer.
final class ClosureSubject<Value> {
    var observers: [(Value) -> Void] = []

    func send(_ value: Value) {
        for observer in observers { observer(value) }
    }
}

/// The hand-written reference subject where subscriptions come and go (W2, W8, the
/// subscribe+dispose scale curve): observers in a contiguous array for delivery, and a
/// dictionary from subscription id to array position, so `dispose()` removes its observer in
/// O(1) by moving the last observer into the hole (delivery order is not kept across
/// removals). No locks, no grammar.
final class IndexedSubject<Value> {
    private(set) var observers: [(id: Int, observer: (Value) -> Void)] = []
    private var positions: [Int: Int] = [:]
    private var nextID = 0

    var count: Int { observers.count }

    func send(_ value: Value) {
        for entry in observers { entry.observer(value) }
    }

    func subscribe(_ observer: @escaping (Value) -> Void) -> ClosureSubscription<Value> {
        nextID += 1
        positions[nextID] = observers.count
        observers.append((nextID, observer))
        return ClosureSubscription(subject: self, id: nextID)
    }

    fileprivate func remove(_ id: Int) {
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = observers.count - 1
        if position != last {
            observers.swapAt(position, last)
            positions[observers[position].id] = position
        }
        observers.removeLast()
    }
}

/// The handle `IndexedSubject.subscribe` returns, as a real one would: an object whose
/// `dispose()` removes the observer from the subject (once).
final class ClosureSubscription<Value> {
    private let subject: IndexedSubject<Value>
    private let id: Int
    private var isDisposed = false

    fileprivate init(subject: IndexedSubject<Value>, id: Int) {
        self.subject = subject
        self.id = id
    }

    func dispose() {
        if isDisposed { return }
        isDisposed = true
        subject.remove(id)
    }
}

enum Workloads {
    // MARK: W1: subject → map(+1) → filter(even) → sink(sum)

    static func w1() -> WorkloadResult {
        let sends = 1_000_000
        let (toolkit, open, closures) = Harness.compare(operations: sends, toolkit: {
            let subject = PublishSubject<Int, Never>()
            let total = Total()
            let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { total.value &+= $0 })
            return Run {
                for index in 0..<sends { subject.send(index) }
                subscription.dispose()
                return total.value
            }
        }, openCombine: {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellable = subject.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink { total.value &+= $0 }
            return Run {
                for index in 0..<sends { subject.send(index) }
                cancellable.cancel()
                return total.value
            }
        }, closures: {
            let total = Total()
            var observers: [(Int) -> Void] = []
            let sink: (Int) -> Void = { total.value &+= $0 }
            let filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
            observers.append { filter($0 + 1) }
            return Run {
                for index in 0..<sends { for observer in observers { observer(index) } }
                return total.value
            }
        })
        return WorkloadResult(id: "W1", name: "subject → map → filter → sink", unit: "ns/send", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W2: subscribe then dispose on one subject

    static func w2() -> WorkloadResult {
        let pairs = 100_000
        let (toolkit, open, closures) = Harness.compare(operations: pairs, toolkit: {
            let subject = PublishSubject<Int, Never>()
            return Run {
                for _ in 0..<pairs { subject.signal.sink(value: { _ in }).dispose() }
                return subject.subscriberCount + pairs
            }
        }, openCombine: {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            return Run {
                for _ in 0..<pairs { subject.sink { _ in }.cancel() }
                return pairs
            }
        }, closures: {
            let subject = IndexedSubject<Int>()
            return Run {
                for _ in 0..<pairs { subject.subscribe { _ in }.dispose() }
                return subject.count + pairs
            }
        })
        return WorkloadResult(id: "W2", name: "subscribe + dispose on one subject", unit: "ns/pair", toolkit: toolkit, openCombine: open, closures: closures, note: "closures: `IndexedSubject`, whose subscribe returns a handle object that removes the observer on dispose()")
    }

    // MARK: W3: combineLatest(a, b), alternating sends, sink sums

    /// Which input of W3's OpenCombine column a value came from.
    enum Side {
        case a(Int)
        case b(Int)
    }

    static func w3() -> WorkloadResult {
        let sends = 500_000
        let (toolkit, open, closures) = Harness.compare(operations: sends, toolkit: {
            let a = PublishSubject<Int, Never>(), b = PublishSubject<Int, Never>()
            let total = Total()
            let subscription = a.signal.combineLatest(b.signal).sink(value: { total.value &+= $0.0 &+ $0.1 })
            return Run {
                for index in 0..<sends { if index & 1 == 0 { a.send(index) } else { b.send(index) } }
                subscription.dispose()
                return total.value
            }
        }, openCombine: {
            // OpenCombine 0.14 has no CombineLatest: the nearest built-ins are a merge
            // (Publishers.Sequence + flatMap, as for W6) of the two inputs tagged by map, a
            // scan keeping the latest pair, and a compactMap that waits until both are set.
            let a = OpenCombine.PassthroughSubject<Int, Never>(), b = OpenCombine.PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellable = OpenCombine.Publishers.Sequence<[OpenCombine.Publishers.Map<OpenCombine.PassthroughSubject<Int, Never>, Side>], Never>(sequence: [a.map { Side.a($0) }, b.map { Side.b($0) }])
                .flatMap { $0 }
                .scan((Int?.none, Int?.none)) { latest, side -> (Int?, Int?) in
                    switch side {
                    case .a(let value): (value, latest.1)
                    case .b(let value): (latest.0, value)
                    }
                }
                .compactMap { latest -> (Int, Int)? in
                    guard let first = latest.0, let second = latest.1 else { return nil }
                    return (first, second)
                }
                .sink { total.value &+= $0.0 &+ $0.1 }
            return Run {
                for index in 0..<sends { if index & 1 == 0 { a.send(index) } else { b.send(index) } }
                cancellable.cancel()
                return total.value
            }
        }, closures: {
            final class Latest { var a: Int?; var b: Int? }
            let total = Total()
            let a = ClosureSubject<Int>(), b = ClosureSubject<Int>(), latest = Latest()
            let sink: (Int, Int) -> Void = { total.value &+= $0 &+ $1 }
            a.observers.append { value in latest.a = value; if let other = latest.b { sink(value, other) } }
            b.observers.append { value in latest.b = value; if let other = latest.a { sink(other, value) } }
            return Run {
                for index in 0..<sends { if index & 1 == 0 { a.send(index) } else { b.send(index) } }
                return total.value
            }
        })
        return WorkloadResult(id: "W3", name: "combineLatest(a, b)", unit: "ns/send", toolkit: toolkit, openCombine: open, closures: closures, note: "OpenCombine 0.14 has no CombineLatest; its column is the nearest built-ins: Publishers.Sequence([a.map, b.map]).flatMap (a merge), scan to the latest pair, compactMap until both are set (four stages where a native combineLatest is one, so this overstates OpenCombine's cost)")
    }

    // MARK: W4: outer subject of 10,000 inner subjects, switchToLatest, 50 values each

    static func w4() -> WorkloadResult {
        let inners = 10_000, values = 50
        let operations = inners * values
        // Each inner subject is created inside the timed loop, just before it is sent.
        let (toolkit, open, closures) = Harness.compare(operations: operations, toolkit: {
            let outer = PublishSubject<Signal<Int, Never>, Never>()
            let total = Total()
            let subscription = outer.signal.switchToLatest().sink(value: { total.value &+= $0 })
            return Run {
                for _ in 0..<inners {
                    let subject = PublishSubject<Int, Never>()
                    outer.send(subject.signal)
                    for value in 0..<values { subject.send(value) }
                }
                subscription.dispose()
                return total.value
            }
        }, openCombine: {
            let outer = OpenCombine.PassthroughSubject<OpenCombine.PassthroughSubject<Int, Never>, Never>()
            let total = Total()
            let cancellable = outer.switchToLatest().sink { total.value &+= $0 }
            return Run {
                for _ in 0..<inners {
                    let subject = OpenCombine.PassthroughSubject<Int, Never>()
                    outer.send(subject)
                    for value in 0..<values { subject.send(value) }
                }
                cancellable.cancel()
                return total.value
            }
        }, closures: {
            // Switching unregisters the forwarding closure from the old inner subject and
            // registers it with the new one.
            final class Switch { var current: ClosureSubject<Int>? }
            let total = Total()
            let outer = ClosureSubject<ClosureSubject<Int>>()
            let state = Switch()
            let forward: (Int) -> Void = { total.value &+= $0 }
            outer.observers.append { inner in
                state.current?.observers.removeAll()
                state.current = inner
                inner.observers.append(forward)
            }
            return Run {
                for _ in 0..<inners {
                    let subject = ClosureSubject<Int>()
                    outer.send(subject)
                    for value in 0..<values { subject.send(value) }
                }
                return total.value
            }
        })
        return WorkloadResult(id: "W4", name: "switchToLatest over 10,000 inners", unit: "ns/inner value", toolkit: toolkit, openCombine: open, closures: closures, note: "inner subjects are created in the timed loop")
    }

    // MARK: W5: mutable property set, one observer

    static func w5() -> WorkloadResult {
        let sets = 1_000_000
        let (toolkit, open, closures) = Harness.compare(operations: sets, toolkit: {
            let property = MutableProperty(0)
            let total = Total()
            let subscription = property.signal.sink(value: { total.value &+= $0 })
            return Run {
                for index in 0..<sets { property.value = index }
                subscription.dispose()
                return total.value
            }
        }, openCombine: {
            let subject = OpenCombine.CurrentValueSubject<Int, Never>(0)
            let total = Total()
            let cancellable = subject.sink { total.value &+= $0 }
            return Run {
                for index in 0..<sets { subject.value = index }
                cancellable.cancel()
                return total.value
            }
        }, closures: {
            final class Property {
                var observers: [(Int) -> Void] = []
                var value = 0 { didSet { for observer in observers { observer(value) } } }
            }
            let property = Property()
            let total = Total()
            property.observers.append { total.value &+= $0 }
            return Run {
                for index in 0..<sets { property.value = index }
                return total.value
            }
        })
        return WorkloadResult(id: "W5", name: "mutable property set, one observer", unit: "ns/set", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    // MARK: W6: merge of 8 subjects, round-robin sends

    static func w6() -> WorkloadResult {
        let sends = 1_000_000
        let (toolkit, open, closures) = Harness.compare(operations: sends, toolkit: {
            let subjects = (0..<8).map { _ in PublishSubject<Int, Never>() }
            let total = Total()
            let subscription = Signal.merge(subjects.map(\.signal)).sink(value: { total.value &+= $0 })
            return Run {
                for index in 0..<sends { subjects[index & 7].send(index) }
                subscription.dispose()
                return total.value
            }
        }, openCombine: {
            // OpenCombine 0.14 has no Merge/MergeMany: the nearest built-in is flatMap over a
            // sequence of the subjects (what MergeMany is, with unlimited maxPublishers).
            let subjects = (0..<8).map { _ in OpenCombine.PassthroughSubject<Int, Never>() }
            let total = Total()
            let cancellable = OpenCombine.Publishers.Sequence<[OpenCombine.PassthroughSubject<Int, Never>], Never>(sequence: subjects)
                .flatMap { $0 }
                .sink { total.value &+= $0 }
            return Run {
                for index in 0..<sends { subjects[index & 7].send(index) }
                cancellable.cancel()
                return total.value
            }
        }, closures: {
            let total = Total()
            let merged: (Int) -> Void = { total.value &+= $0 }
            let subjects = (0..<8).map { _ in ClosureSubject<Int>() }
            for subject in subjects { subject.observers.append(merged) }
            return Run {
                for index in 0..<sends { subjects[index & 7].send(index) }
                return total.value
            }
        })
        return WorkloadResult(id: "W6", name: "merge of 8 subjects", unit: "ns/send", toolkit: toolkit, openCombine: open, closures: closures, note: "OpenCombine 0.14 has no Merge/MergeMany; its column is the nearest built-in: Publishers.Sequence(subjects).flatMap { $0 }")
    }

    // MARK: W7: one subject, 100 subscribers

    static func w7() -> WorkloadResult {
        let sends = 10_000, subscribers = 100
        let operations = sends * subscribers
        let (toolkit, open, closures) = Harness.compare(operations: operations, toolkit: {
            let subject = PublishSubject<Int, Never>()
            let total = Total()
            let subscriptions = (0..<subscribers).map { _ in subject.signal.sink(value: { total.value &+= $0 }) }
            return Run {
                for index in 0..<sends { subject.send(index) }
                subscriptions.forEach { $0.dispose() }
                return total.value
            }
        }, openCombine: {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellables = (0..<subscribers).map { _ in subject.sink { total.value &+= $0 } }
            return Run {
                for index in 0..<sends { subject.send(index) }
                cancellables.forEach { $0.cancel() }
                return total.value
            }
        }, closures: {
            let total = Total()
            let observers: [(Int) -> Void] = (0..<subscribers).map { _ in { total.value &+= $0 } }
            return Run {
                for index in 0..<sends { for observer in observers { observer(index) } }
                return total.value
            }
        })
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
        /// What the caller keeps of one chain: the subject and the subscription handle.
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
            let subject = IndexedSubject<Int>()
            let sink: (Int) -> Void = { _ in }
            let filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
            let subscription = subject.subscribe { filter($0 + 1) }
            return Holder([subject, subscription])
        }
        return (toolkit, open, closures)
    }
}
