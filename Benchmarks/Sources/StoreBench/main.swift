// StoreBench (issue 42): what the store costs for each observed query it runs again after a write.
//
// A SQLite store (in memory, and a file in WAL mode) holds a table of R rows. K properties
// observe a query of all its rows; each of W writes changes one row in a transaction, and the
// store runs every observed query again, decodes its rows and hands the result to the property.
// The process's CPU time (every thread) per write is measured with K = 0 and with K observers:
// (cpu(K) - cpu(0)) / K is the cost of one re-run. A plain `fetch` of the same query, timed alone,
// is what the database and the decoding cost without the observation.
//
//     swift run -c release --package-path Benchmarks StoreBench [rows] [observers] [writes]
import Foundation
import Signals
import Store

struct Row: Sendable {
    let id: Int
    let title: String
    let done: Bool
}

let migrations = [
    Migration("1 rows", ["CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)"])
]
let everything = Query<[Row]>("SELECT id, title, done FROM items ORDER BY id", reads: ["items"]) { rows throws(StoreError) in
    var result: [Row] = []
    result.reserveCapacity(rows.count)
    for row in rows {
        result.append(Row(id: try row.int("id"), title: try row.text("title"), done: try row.bool("done")))
    }
    return result
}

func processCPU() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// A write that changes the table and keeps its size: one row's title.
func rename(_ store: Store, _ title: String) async throws(StoreError) {
    try await store.write { db throws(StoreError) in
        try await db.execute("UPDATE items SET title = ? WHERE id = 1", [.text(title)])
    }
}

/// CPU seconds per write with `observers` properties following the query (every re-run
/// delivered before the next write starts).
func perWrite(_ store: Store, observers: Int, writes: Int) async throws(StoreError) -> Double {
    var properties: [Property<[Row]>] = []
    for _ in 0..<observers { properties.append(store.property(everything, initial: [])) }
    await store.settled()
    let before = processCPU()
    for index in 0..<writes { try await rename(store, "write \(index) of \(observers)") }
    await store.settled()
    let cpu = processCPU() - before
    if let first = properties.first, first.value.first?.title != "write \(writes - 1) of \(observers)" {
        fatalError("an observer did not get the last write's result")
    }
    withExtendedLifetime(properties) {}
    return cpu / Double(writes)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func run(_ name: String, open: () async throws(StoreError) -> Store, rows: Int, observers: Int, writes: Int) async throws(StoreError) {
    let store = try await open()
    try await store.write { db throws(StoreError) in
        for index in 0..<rows { try await db.execute("INSERT INTO items (title) VALUES (?)", [.text("row \(index)")]) }
    }
    var fetches: [Double] = [], bare: [Double] = [], observed: [Double] = []
    for _ in 0..<5 {
        let before = processCPU()
        for _ in 0..<50 { _ = try await store.fetch(everything) }
        fetches.append((processCPU() - before) / 50)
        bare.append(try await perWrite(store, observers: 0, writes: writes))
        observed.append(try await perWrite(store, observers: observers, writes: writes))
    }
    let rerun = (median(observed) - median(bare)) / Double(observers)
    func us(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }
    print("| \(name) | \(rows) | \(us(median(bare))) | \(us(median(observed))) (\(observers) observers) | **\(us(rerun))** | \(us(median(fetches))) | \(String(format: "%.2f", rerun / median(fetches)))× |")
    print("|   spread (min–max of 5) | | \(us(bare.min()!))–\(us(bare.max()!)) | \(us(observed.min()!))–\(us(observed.max()!)) | | \(us(fetches.min()!))–\(us(fetches.max()!)) | |")
    await store.close()
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rows = arguments.count > 0 ? arguments[0] : 100
let observers = arguments.count > 1 ? arguments[1] : 100
let writes = arguments.count > 2 ? arguments[2] : 50
print("| engine | rows | CPU per write, nothing observed | CPU per write, observed | per re-run | a fetch alone | re-run / fetch |")
print("|---|---|---|---|---|---|---|")
do {
    try await run("SQLite in memory", open: { () async throws(StoreError) in try await Store.sqliteInMemory(migrations: migrations) },
                  rows: rows, observers: observers, writes: writes)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await run("SQLite file (WAL)", open: { () async throws(StoreError) in
        try await Store.sqlite(path: folder.appendingPathComponent("bench.sqlite").path, migrations: migrations, watchInterval: nil)
    }, rows: rows, observers: observers, writes: writes)
} catch {
    print("StoreBench: \(error)")
    exit(1)
}
