import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import MallocCounter

// Runs W1–W8 (design.md) three ways and prints a markdown table. Release build, the toolkit
// as a separate module, default flags, a second thread alive in the process, median of 5.
// T-BEYOND1: it exits 1 if the toolkit is slower than OpenCombine on any workload, or if the
// three implementations disagree. (RxSwift and ReactiveSwift cannot be fetched on this
// machine, so OpenCombine and hand-written closures are the references measured.)

if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "profile" {
    Profile.run(CommandLine.arguments[2])
    exit(0)
}

let stop = DispatchSemaphore(value: 0)
DispatchQueue.global().async { stop.wait() }

let results = [Workloads.w1(), Workloads.w2(), Workloads.w3(), Workloads.w4(), Workloads.w5(), Workloads.w6(), Workloads.w7()]
var mismatches: [String] = []
var slower: [String] = []

print("| id | workload | unit | toolkit | OpenCombine | closures | toolkit / closures | toolkit / OpenCombine | toolkit allocs/op |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
for result in results {
    let toolkit = result.toolkit.nanosecondsPerOperation
    let closures = result.closures.nanosecondsPerOperation
    let open = result.openCombine.map { format($0.nanosecondsPerOperation) } ?? "n/a"
    let versusOpen = result.openCombine.map { format(toolkit / $0.nanosecondsPerOperation, digits: 2) + "×" } ?? "n/a"
    print("| \(result.id) | \(result.name) | \(result.unit) | \(format(toolkit)) | \(open) | \(format(closures)) | \(format(toolkit / closures, digits: 2))× | \(versusOpen) | \(format(result.toolkit.allocationsPerOperation, digits: 3)) |")
    if result.toolkit.checksum != result.closures.checksum || (result.openCombine.map { $0.checksum != result.toolkit.checksum } ?? false) {
        mismatches.append("\(result.id): toolkit \(result.toolkit.checksum), closures \(result.closures.checksum), OpenCombine \(result.openCombine.map { String($0.checksum) } ?? "n/a")")
    }
    if let open = result.openCombine, toolkit >= open.nanosecondsPerOperation {
        slower.append("\(result.id): toolkit \(format(toolkit)) ns, OpenCombine \(format(open.nanosecondsPerOperation)) ns")
    }
}
let heap = Workloads.w8()
print("| W8 | live subject → map → filter → sink chain | bytes, allocations per chain | \(format(heap.toolkit.bytes, digits: 0)) B, \(format(heap.toolkit.allocations)) | \(format(heap.openCombine.bytes, digits: 0)) B, \(format(heap.openCombine.allocations)) | \(format(heap.closures.bytes, digits: 0)) B, \(format(heap.closures.allocations)) | \(format(heap.toolkit.bytes / heap.closures.bytes, digits: 2))× bytes | \(format(heap.toolkit.bytes / heap.openCombine.bytes, digits: 2))× bytes | |")
let notes = results.filter { !$0.note.isEmpty }.map { "\($0.id): \($0.note)." }
if !notes.isEmpty { print("\n" + notes.joined(separator: " ")) }
print("W8 counts bytes requested from malloc (not the allocator's rounding).")
if mc_is_counting() == 0 { print("Allocations are not counted on this platform.") }
if heap.toolkit.bytes >= heap.openCombine.bytes {
    slower.append("W8: toolkit \(format(heap.toolkit.bytes, digits: 0)) B, OpenCombine \(format(heap.openCombine.bytes, digits: 0)) B")
}
if !mismatches.isEmpty || !slower.isEmpty {
    if !mismatches.isEmpty { print("\nRESULTS DIFFER:\n" + mismatches.joined(separator: "\n")) }
    if !slower.isEmpty { print("\nT-BEYOND1 FAILS, not faster than OpenCombine:\n" + slower.joined(separator: "\n")) }
    stop.signal()
    exit(1)
}
stop.signal()
