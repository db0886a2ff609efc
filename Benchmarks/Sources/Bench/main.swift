import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MallocCounter

// Runs W1–W8 (design.md) three ways and prints a markdown table, then the scale curves.
// Release build, the toolkit as a separate module, default flags, a second thread alive in the
// process. Times are the calling thread's CPU time, median of 7 repetitions interleaved across
// the columns, with the minimum and maximum beside it.
// T-BEYOND1: it exits 1 if the toolkit is slower than OpenCombine on any of W1–W7 (heavier, for
// W8), or if the implementations disagree. (RxSwift and ReactiveSwift cannot be fetched on this
// machine, so OpenCombine and hand-written closures are the references measured.)

// `Bench count W4 closures`: one column of one workload, run once, untimed, for callgrind
// (Benchmarks/count-instructions.py); `Bench count none` runs nothing (the start-up to subtract).
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "count" {
    let workloads = ["W1": Workloads.w1, "W2": Workloads.w2, "W3": Workloads.w3, "W4": Workloads.w4, "W5": Workloads.w5, "W6": Workloads.w6, "W7": Workloads.w7]
    if let workload = workloads[CommandLine.arguments[2]], CommandLine.arguments.count > 3 {
        Harness.countedColumn = CommandLine.arguments[3]
        _ = workload()
    }
    exit(0)
}

let stop = DispatchSemaphore(value: 0)
DispatchQueue.global().async { stop.wait() }

var mismatches: [String] = []
var slower: [String] = []

/// Prints one row of a table and records checksum mismatches; returns the row's
/// toolkit ÷ OpenCombine ratio of medians, if there is an OpenCombine column.
@MainActor @discardableResult
func printRow(_ result: WorkloadResult, allocations: Bool) -> Double? {
    let toolkit = result.toolkit.nanosecondsPerOperation
    let closures = result.closures.nanosecondsPerOperation
    let open = result.openCombine.map { spread($0) } ?? "n/a"
    let ratio = result.openCombine.map { toolkit / $0.nanosecondsPerOperation }
    let versusOpen = ratio.map { format($0, digits: 2) + "×" } ?? "n/a"
    let allocationsCell = allocations ? " \(format(result.toolkit.allocationsPerOperation, digits: 3)) |" : ""
    let pair = paired(result.toolkit, result.closures)
    let pairCell = "\(format(pair.median, digits: 2))× (\(format(pair.minimum, digits: 2))–\(format(pair.maximum, digits: 2)))"
    print("| \(result.id) | \(result.name) | \(result.unit) | \(spread(result.toolkit)) | \(open) | \(spread(result.closures)) | \(format(toolkit / closures, digits: 2))× | \(pairCell) | \(versusOpen) |\(allocationsCell)")
    if result.toolkit.checksum != result.closures.checksum || (result.openCombine.map { $0.checksum != result.toolkit.checksum } ?? false) {
        mismatches.append("\(result.id) \(result.name): toolkit \(result.toolkit.checksum), closures \(result.closures.checksum), OpenCombine \(result.openCombine.map { String($0.checksum) } ?? "n/a")")
    }
    return ratio
}

let results = [Workloads.w1(), Workloads.w2(), Workloads.w3(), Workloads.w4(), Workloads.w5(), Workloads.w6(), Workloads.w7()]

print("| id | workload | unit | toolkit | OpenCombine | closures | toolkit / closures | toolkit / closures, paired | toolkit / OpenCombine | toolkit allocs/op |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
for result in results {
    printRow(result, allocations: true)
    if let open = result.openCombine, result.toolkit.nanosecondsPerOperation >= open.nanosecondsPerOperation {
        slower.append("\(result.id): toolkit \(formatTime(result.toolkit.nanosecondsPerOperation)) ns, OpenCombine \(formatTime(open.nanosecondsPerOperation)) ns (medians)")
    }
}
let heap = Workloads.w8()
print("| W8 | live subject → map → filter → sink chain | bytes, allocations per chain | \(format(heap.toolkit.bytes, digits: 0)) B, \(format(heap.toolkit.allocations)) | \(format(heap.openCombine.bytes, digits: 0)) B, \(format(heap.openCombine.allocations)) | \(format(heap.closures.bytes, digits: 0)) B, \(format(heap.closures.allocations)) | \(format(heap.toolkit.bytes / heap.closures.bytes, digits: 2))× bytes | | \(format(heap.toolkit.bytes / heap.openCombine.bytes, digits: 2))× bytes | |")
print("\nTimes: thread CPU time, median (min–max) of \(Harness.repetitions) repetitions interleaved across columns; \"toolkit / closures\" divides the medians, \"paired\" is the median (min–max) of the ratios of repetitions run back to back.")
let notes = results.filter { !$0.note.isEmpty }.map { "\($0.id): \($0.note)." }
if !notes.isEmpty { print(notes.joined(separator: "\n")) }
print("W8: each chain is kept as a holder of its subject and its subscription handle, in all three columns; bytes requested from malloc (not the allocator's rounding).")
if mc_is_counting() == 0 { print("Allocations are not counted on this platform.") }
if heap.toolkit.bytes >= heap.openCombine.bytes {
    slower.append("W8: toolkit \(format(heap.toolkit.bytes, digits: 0)) B, OpenCombine \(format(heap.openCombine.bytes, digits: 0)) B")
}

// Scale curves. T-G4 gate: subscribe+dispose with 100,000 attached within 2× of none attached
// (fastest repetitions).
print("\n| scale | size | unit | toolkit | OpenCombine | closures | toolkit / closures | toolkit / closures, paired | toolkit / OpenCombine |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
for subscribers in [10, 100, 1_000, 10_000] {
    printRow(Scale.fanOut(subscribers: subscribers), allocations: false)
}
var pairCost: [Int: Measurement] = [:]
for (attached, pairs) in [(0, 100_000), (1_000, 50_000), (10_000, 50_000), (100_000, 50_000)] {
    let result = Scale.subscribeDispose(attached: attached, pairs: pairs)
    printRow(result, allocations: false)
    pairCost[attached] = result.toolkit
}
// The gate compares the fastest repetitions: noise on this shared VM only adds time, and comes
// in phases that slow everything down by up to 1.8× for seconds (seen on 2026-11-26: medians of
// one binary's row at 110 ns in one run and 186 ns in the next), which a median of 7 does not
// always absorb, while a cost linear in the subscribers attached (the defect the gate exists
// for: 31 µs against 138 ns) shows in every repetition, the fastest included.
if let full = pairCost[100_000], let empty = pairCost[0] {
    let ratio = full.minimum / empty.minimum
    let medians = full.nanosecondsPerOperation / empty.nanosecondsPerOperation
    print("\nT-G4: toolkit subscribe+dispose with 100,000 attached ÷ with 0 attached = \(format(ratio, digits: 2))× (\(formatTime(full.minimum)) ns ÷ \(formatTime(empty.minimum)) ns, fastest repetitions; \(format(medians, digits: 2))× on medians); the gate is 2×.")
    if ratio > 2 { slower.append("T-G4: subscribe+dispose with 100,000 attached is \(format(ratio, digits: 2))× the cost with none (gate: 2×)") }
}

if !mismatches.isEmpty || !slower.isEmpty {
    if !mismatches.isEmpty { print("\nRESULTS DIFFER:\n" + mismatches.joined(separator: "\n")) }
    if !slower.isEmpty { print("\nBENCH GATES FAIL:\n" + slower.joined(separator: "\n")) }
    stop.signal()
    exit(1)
}
stop.signal()
