#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MallocCounter

/// One measured implementation of a workload: per-operation thread CPU time over the
/// repetitions (median, minimum, maximum), the median allocations per operation, and the
/// checksum the body computed.
struct Measurement {
    var nanosecondsPerOperation: Double
    var minimum: Double
    var maximum: Double
    var allocationsPerOperation: Double
    var checksum: Int
    /// Per-operation time of each repetition, in the order they ran (repetition k of every
    /// column ran back to back, so `paired` can divide them pairwise).
    var times: [Double] = []
}

/// The ratio of two columns repetition by repetition: median, minimum and maximum of
/// `a.times[k] / b.times[k]`. Repetition k of both columns ran within a fraction of a second, so
/// a slow phase of the machine (this VM has them, lasting seconds) divides out of each ratio;
/// the ratio of medians can be off by the phase that hit one column's median and not the other's.
func paired(_ a: Measurement, _ b: Measurement) -> (median: Double, minimum: Double, maximum: Double) {
    let ratios = zip(a.times, b.times).map { $0 / $1 }.sorted()
    guard !ratios.isEmpty else { return (0, 0, 0) }
    return (Harness.median(ratios), ratios[0], ratios[ratios.count - 1])
}

/// A workload run three ways.
struct WorkloadResult {
    let id: String
    let name: String
    let unit: String
    let toolkit: Measurement
    let openCombine: Measurement?
    let closures: Measurement
    let note: String
}

/// What one repetition of one column runs: `body` is timed and returns a checksum;
/// `tearDown` runs after the clock stopped (to detach subscribers the workload does not time).
struct Run {
    let body: () -> Int
    let tearDown: () -> Void

    init(_ body: @escaping () -> Int, tearDown: @escaping () -> Void = {}) {
        self.body = body
        self.tearDown = tearDown
    }
}

/// One implementation of a workload: builds what the workload needs (untimed) and returns
/// the run.
typealias SetUp = () -> Run

enum Harness {
    static let repetitions = 7

    /// Measures the columns of one workload, interleaved: repetition 1 runs every column once,
    /// in order, then repetition 2, and so on, so machine noise hits all columns alike. Each
    /// repetition runs the column's `setUp` (untimed), then its body, timed with the calling
    /// thread's CPU clock, with allocations counted, then its `tearDown` (untimed).
    /// `operations` is how many operations one body performs. A column whose checksum differs
    /// between repetitions reports `Int.min`, so the comparison of columns fails.
    static func measure(operations: Int, _ columns: [SetUp]) -> [Measurement] {
        var times = Array(repeating: [Double](), count: columns.count)
        var allocations = Array(repeating: [Double](), count: columns.count)
        var checksums = Array(repeating: [Int](), count: columns.count)
        for _ in 0..<repetitions {
            for (index, setUp) in columns.enumerated() {
                let run = setUp()
                mc_reset()
                let start = threadCPUNanoseconds()
                let checksum = run.body()
                let elapsed = threadCPUNanoseconds() - start
                let allocated = mc_allocations()
                run.tearDown()
                times[index].append(Double(elapsed) / Double(operations))
                allocations[index].append(Double(allocated) / Double(operations))
                checksums[index].append(checksum)
            }
        }
        return columns.indices.map { index in
            let sorted = times[index].sorted()
            let sums = checksums[index]
            return Measurement(
                nanosecondsPerOperation: median(sorted),
                minimum: sorted.first ?? 0,
                maximum: sorted.last ?? 0,
                allocationsPerOperation: median(allocations[index].sorted()),
                checksum: sums.allSatisfy { $0 == sums.first } ? sums.first ?? 0 : Int.min,
                times: times[index]
            )
        }
    }

    /// Set by `Bench count`: run this one column once, untimed, for callgrind.
    nonisolated(unsafe) static var countedColumn: String?

    /// Toolkit, OpenCombine (if it has the operator) and closures, interleaved.
    static func compare(operations: Int, toolkit: @escaping SetUp, openCombine: SetUp?, closures: @escaping SetUp) -> (toolkit: Measurement, openCombine: Measurement?, closures: Measurement) {
        if let column = countedColumn {
            let setUp = ["toolkit": toolkit, "closures": closures, "opencombine": openCombine][column] ?? nil
            if let setUp {
                let run = setUp()
                print("operations \(operations) checksum \(run.body())")
                run.tearDown()
            }
            let none = Measurement(nanosecondsPerOperation: 0, minimum: 0, maximum: 0, allocationsPerOperation: 0, checksum: 0)
            return (none, none, none)
        }
        if let openCombine {
            let results = measure(operations: operations, [toolkit, openCombine, closures])
            return (results[0], results[1], results[2])
        }
        let results = measure(operations: operations, [toolkit, closures])
        return (results[0], nil, results[1])
    }

    /// The median of sorted values.
    static func median(_ sorted: [Double]) -> Double {
        sorted[sorted.count / 2]
    }

    /// CPU time consumed by the calling thread, in nanoseconds: time the thread spends
    /// descheduled (another engineer's build on the shared cores) is not counted.
    static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// A box for sums in single-threaded benchmarks.
final class Total: @unchecked Sendable {
    // SAFETY: each benchmark runs on one thread; the box is never shared across threads.
    var value = 0
}

func format(_ value: Double, digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(rounded)) : String(rounded)
}

/// A time: one decimal below 1,000, whole numbers above.
func formatTime(_ value: Double) -> String {
    format(value, digits: value >= 1000 ? 0 : 1)
}

/// "median (min–max)".
func spread(_ measurement: Measurement) -> String {
    "\(formatTime(measurement.nanosecondsPerOperation)) (\(formatTime(measurement.minimum))–\(formatTime(measurement.maximum)))"
}
