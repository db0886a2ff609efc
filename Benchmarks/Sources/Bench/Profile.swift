import Signals

/// `Bench profile W1` (and W2, W3, W4, W5, W6): one workload's toolkit path alone, for callgrind.
enum Profile {
    static func run(_ workload: String) {
        let total = Total()
        switch workload {
        case "W1":
            let subject = PublishSubject<Int, Never>()
            let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { total.value &+= $0 })
            for index in 0..<200_000 { subject.send(index) }
            subscription.dispose()
        case "W2":
            let subject = PublishSubject<Int, Never>()
            for _ in 0..<50_000 { subject.signal.sink(value: { _ in }).dispose() }
        case "W3":
            let a = PublishSubject<Int, Never>(), b = PublishSubject<Int, Never>()
            let subscription = a.signal.combineLatest(b.signal).sink(value: { total.value &+= $0.0 &+ $0.1 })
            for index in 0..<100_000 { if index & 1 == 0 { a.send(index) } else { b.send(index) } }
            subscription.dispose()
        case "W4":
            let outer = PublishSubject<Signal<Int, Never>, Never>()
            let subscription = outer.signal.switchToLatest().sink(value: { total.value &+= $0 })
            for _ in 0..<4_000 {
                let subject = PublishSubject<Int, Never>()
                outer.send(subject.signal)
                for value in 0..<50 { subject.send(value) }
            }
            subscription.dispose()
        case "W6":
            let subjects = (0..<8).map { _ in PublishSubject<Int, Never>() }
            let subscription = Signal.merge(subjects.map(\.signal)).sink(value: { total.value &+= $0 })
            for index in 0..<100_000 { subjects[index & 7].send(index) }
            subscription.dispose()
        case "W5":
            let property = MutableProperty(0)
            let subscription = property.signal.sink(value: { total.value &+= $0 })
            for index in 0..<200_000 { property.value = index }
            subscription.dispose()
        case "W8":
            // One chain as W8 builds it, for `valgrind --trace-malloc=yes`: what each allocation is.
            final class Holder { let parts: [Any]; init(_ parts: [Any]) { self.parts = parts } }
            var live: [AnyObject] = []
            live.reserveCapacity(4)
            print("W8 chain start")
            for _ in 0..<2 {
                let subject = PublishSubject<Int, Never>()
                let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { _ in })
                live.append(Holder([subject, subscription]))
            }
            print("W8 chain end")
            withExtendedLifetime(live) {}
        default:
            print("unknown workload \(workload)")
        }
        print(total.value)
    }
}
