import Signals

/// `BenchProfile W1` (and W2, W3, W4, W5, W6, W8): one workload's toolkit path alone, for
/// callgrind.
///
/// An executable of its own, not a mode of `Bench`: the same chains (with the same types) in the
/// Bench binary are second users of the toolkit's generic specializations, and that changed how
/// the Bench's own code was compiled. With this W1 in Bench, LLVM kept the joined map-and-filter
/// stage's body out of the Bench workload's forwarding thunk (inlining it into this one), and W1's
/// toolkit column counted 105.8 instructions per send instead of 94.8.
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

/// A box for sums (one thread).
final class Total: @unchecked Sendable {
    // SAFETY: each profile runs on one thread; the box is never shared across threads.
    var value = 0
}

if CommandLine.arguments.count > 1 {
    Profile.run(CommandLine.arguments[1])
} else {
    print("usage: BenchProfile W1|W2|W3|W4|W5|W6|W8")
}
