import Dispatch
import MallocCounter

/// One measured implementation of a workload.
struct Measurement {
    var nanosecondsPerOperation: Double
    var allocationsPerOperation: Double
    var checksum: Int
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

enum Harness {
    static let runs = 5

    /// Runs `setUp` then the returned body `runs` times; reports the medians. `operations` is
    /// how many operations one run performs. The body returns a checksum.
    static func measure(operations: Int, _ setUp: () -> () -> Int) -> Measurement {
        var times: [Double] = []
        var allocations: [Double] = []
        var checksum = 0
        for _ in 0..<runs {
            let body = setUp()
            mc_reset()
            let start = DispatchTime.now().uptimeNanoseconds
            checksum = body()
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            let allocated = mc_allocations()
            times.append(Double(elapsed) / Double(operations))
            allocations.append(Double(allocated) / Double(operations))
        }
        return Measurement(nanosecondsPerOperation: median(times), allocationsPerOperation: median(allocations), checksum: checksum)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
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
