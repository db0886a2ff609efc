import OpenCombine
import Signals

// Scale curves: how the cost of a delivery and of a subscribe+dispose pair grows with the
// number of subscribers on one subject. Three columns, interleaved, like W1–W7.

enum Scale {
    /// (a) W7-style fan-out: one subject with `subscribers` subscribers (the same three shapes
    /// as W7), ns per delivery. About 1,000,000 deliveries per repetition. Subscribers are
    /// detached after the clock stopped.
    static func fanOut(subscribers: Int) -> WorkloadResult {
        let sends = max(1, 1_000_000 / subscribers)
        let operations = sends * subscribers
        let (toolkit, open, closures) = Harness.compare(operations: operations, toolkit: {
            let subject = PublishSubject<Int, Never>()
            let total = Total()
            let subscriptions = (0..<subscribers).map { _ in subject.signal.sink(value: { total.value &+= $0 }) }
            return Run({
                for index in 0..<sends { subject.send(index) }
                return total.value
            }, tearDown: {
                // Completing detaches every subscriber in one pass (disposing them one by one
                // is quadratic on today's list, and not what this curve measures).
                subject.sendCompleted()
                withExtendedLifetime(subscriptions) {}
            })
        }, openCombine: {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellables = (0..<subscribers).map { _ in subject.sink { total.value &+= $0 } }
            return Run({
                for index in 0..<sends { subject.send(index) }
                return total.value
            }, tearDown: {
                subject.send(completion: .finished)
                withExtendedLifetime(cancellables) {}
            })
        }, closures: {
            let total = Total()
            let observers: [(Int) -> Void] = (0..<subscribers).map { _ in { total.value &+= $0 } }
            return Run {
                for index in 0..<sends { for observer in observers { observer(index) } }
                return total.value
            }
        })
        return WorkloadResult(id: "fan-out", name: "one subject, \(grouped(subscribers)) subscribers", unit: "ns/delivery", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    /// (b) subscribe then dispose one subscription, `pairs` times, on a subject that already
    /// has `attached` other subscribers (attached before the clock starts, detached after it
    /// stopped), ns per pair.
    static func subscribeDispose(attached: Int, pairs: Int) -> WorkloadResult {
        let (toolkit, open, closures) = Harness.compare(operations: pairs, toolkit: {
            let subject = PublishSubject<Int, Never>()
            let others = (0..<attached).map { _ in subject.signal.sink(value: { _ in }) }
            return Run({
                for _ in 0..<pairs { subject.signal.sink(value: { _ in }).dispose() }
                return subject.subscriberCount + pairs
            }, tearDown: {
                subject.sendCompleted()
                withExtendedLifetime(others) {}
            })
        }, openCombine: {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let others = (0..<attached).map { _ in subject.sink { _ in } }
            return Run({
                for _ in 0..<pairs { subject.sink { _ in }.cancel() }
                return others.count + pairs
            }, tearDown: {
                subject.send(completion: .finished)
                withExtendedLifetime(others) {}
            })
        }, closures: {
            let subject = IndexedSubject<Int>()
            let others = (0..<attached).map { _ in subject.subscribe { _ in } }
            return Run({
                for _ in 0..<pairs { subject.subscribe { _ in }.dispose() }
                return subject.count + pairs
            }, tearDown: {
                withExtendedLifetime(others) {}
            })
        })
        return WorkloadResult(id: "subscribe+dispose", name: "\(grouped(attached)) others attached", unit: "ns/pair", toolkit: toolkit, openCombine: open, closures: closures, note: "")
    }

    /// 10000 → "10,000".
    static func grouped(_ value: Int) -> String {
        var digits = String(value)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}
