import Dispatch
import MallocCounter
import Signals

// The hot path of design.md's W1 and friends, measured quickly: release build, the toolkit as a
// separate module, a second thread alive in the process, median of 5 runs.

let keepAlive = DispatchSemaphore(value: 0)
Thread2.start(keepAlive)

func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

struct Result {
    let name: String
    let nsPerOperation: Double
    let allocationsPerOperation: Double
}

func measure(_ name: String, operations: Int, runs: Int = 5, setUp: () -> (run: () -> Void, tearDown: () -> Void)) -> Result {
    var times: [Double] = []
    var allocations: [Double] = []
    for _ in 0..<runs {
        let (run, tearDown) = setUp()
        mc_reset()
        let time = nanoseconds(run)
        allocations.append(Double(mc_allocations()) / Double(operations))
        times.append(time / Double(operations))
        tearDown()
    }
    return Result(name: name, nsPerOperation: median(times), allocationsPerOperation: median(allocations))
}

let sends = 1_000_000
var results: [Result] = []

// W1: subject → map(+1) → filter(even) → sink(sum)
results.append(measure("W1 subject→map→filter→sink (toolkit)", operations: sends) {
    let subject = PublishSubject<Int, Never>()
    let sum = Locked(0)
    let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { value in
        sum.withLock { $0 &+= value }
    })
    return ({ for index in 0..<sends { subject.send(index) } }, { subscription.dispose(); precondition(sum.value == 250_000_500_000) })
})

// The same with a sink that does not lock, to show what the lock in the sink costs.
final class Sum: @unchecked Sendable { var total = 0 } // SAFETY: single-threaded benchmark
results.append(measure("W1 with an unlocked sink (toolkit)", operations: sends) {
    let subject = PublishSubject<Int, Never>()
    let sum = Sum()
    let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { sum.total &+= $0 })
    return ({ for index in 0..<sends { subject.send(index) } }, { subscription.dispose(); precondition(sum.total == 250_000_500_000) })
})

// Hand-written closures: an array of closures as the subject, closures as operators, no locks.
results.append(measure("W1 hand-written closures", operations: sends) {
    let sum = Sum()
    var observers: [(Int) -> Void] = []
    let sink: (Int) -> Void = { sum.total &+= $0 }
    let filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
    let map: (Int) -> Void = { filter($0 + 1) }
    observers.append(map)
    return ({ for index in 0..<sends { for observer in observers { observer(index) } } }, { precondition(sum.total == 250_000_500_000) })
})

// W2: subscribe then dispose on one subject.
let pairs = 100_000
results.append(measure("W2 subscribe+dispose (toolkit)", operations: pairs) {
    let subject = PublishSubject<Int, Never>()
    return ({ for _ in 0..<pairs { subject.signal.sink(value: { _ in }).dispose() } }, { precondition(subject.subscriberCount == 0) })
})

// W5: mutable property set, one observer.
results.append(measure("W5 MutableProperty set (toolkit)", operations: sends) {
    let property = MutableProperty(0)
    let sum = Sum()
    let subscription = property.signal.sink(value: { sum.total &+= $0 })
    return ({ for index in 0..<sends { property.value = index } }, { subscription.dispose() })
})

// W7: one subject, 100 subscribers.
let fanOutSends = 10_000
results.append(measure("W7 100 subscribers, per delivery (toolkit)", operations: fanOutSends * 100) {
    let subject = PublishSubject<Int, Never>()
    let sum = Sum()
    let subscriptions = (0..<100).map { _ in subject.signal.sink(value: { sum.total &+= $0 }) }
    return ({ for index in 0..<fanOutSends { subject.send(index) } }, { subscriptions.forEach { $0.dispose() } })
})

// W8: live chains, heap per chain.
let chains = 100_000
mc_reset()
var live: [(PublishSubject<Int, Never>, any Disposable)] = []
live.reserveCapacity(chains)
let reservedAllocations = mc_allocations()
let reservedBytes = mc_bytes()
for _ in 0..<chains {
    let subject = PublishSubject<Int, Never>()
    let subscription = subject.signal.map { $0 + 1 }.filter { $0 & 1 == 0 }.sink(value: { _ in })
    live.append((subject, subscription))
}
let chainAllocations = Double(mc_allocations() - reservedAllocations) / Double(chains)
let chainBytes = Double(mc_bytes() - reservedBytes) / Double(chains)
live.forEach { $0.1.dispose() }

print("| workload | ns/op | allocations/op |")
print("|---|---:|---:|")
for result in results {
    print("| \(result.name) | \(format(result.nsPerOperation, digits: 1)) | \(format(result.allocationsPerOperation, digits: 3)) |")
}
print("| W8 live subject→map→filter→sink chain | – | \(format(chainAllocations, digits: 1)) allocations, \(format(chainBytes, digits: 0)) B requested |")
if mc_is_counting() == 0 { print("(allocations are not counted on this platform)") }
keepAlive.signal()

/// A second thread alive during the run (design.md: benchmark with a second thread in the process).
enum Thread2 {
    static func start(_ stop: DispatchSemaphore) {
        DispatchQueue.global().async { stop.wait() }
    }
}

func format(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(rounded)) : String(rounded)
}
