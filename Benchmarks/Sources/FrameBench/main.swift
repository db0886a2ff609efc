#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalUI

// TerminalUI frame cost, release build, thread CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID)),
// so time the thread spends descheduled on the shared cores is not counted. Each row is the
// median (min–max) of `repetitions` runs of its body, per frame.
//
// - diff+write rows: `Renderer.render` (the diff and the bytes) plus `write(2)` of those bytes to
//   /dev/null, for a 200×60 screen where every cell changed (the worst case), where one row
//   changed (the usual case), and for a mixed screen (borders, CJK, colours) changing in full.
// - compose: views' work, writing 60 rows of text into a fresh 200×60 buffer.
// - list scroll: a whole frame of a 10,000-row ListView on a 200×60 screen moving down one row
//   (layout, draw, diff, write).

// FRAMEBENCH_REPETITIONS and FRAMEBENCH_ONLY (a row's number, from 1) narrow a run for profiling:
// `FRAMEBENCH_REPETITIONS=1 FRAMEBENCH_ONLY=5 valgrind --tool=callgrind .../FrameBench`.
let repetitions = getenv("FRAMEBENCH_REPETITIONS").flatMap { Int(String(cString: $0)) } ?? 9
let only = getenv("FRAMEBENCH_ONLY").flatMap { Int(String(cString: $0)) }
var rowNumber = 0
let size = Size(width: 200, height: 60)
let sink = open("/dev/null", O_WRONLY)

func cpuNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func emit(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { _ = write(sink, $0.baseAddress, $0.count) }
}

struct Row {
    let name: String
    let milliseconds: [Double]
    let bytes: Int

    var line: String {
        let sorted = milliseconds.sorted()
        return "| \(name) | \(format(sorted[sorted.count / 2])) (\(format(sorted[0]))–\(format(sorted[sorted.count - 1]))) | \(bytes) |"
    }

    func format(_ value: Double) -> String {
        value >= 0.1 ? String((value * 100).rounded() / 100) : String((value * 1000).rounded() / 1000)
    }
}

/// Runs `setUp` then times `body` (which performs `frames` frames and returns the bytes written)
/// `repetitions` times.
@MainActor func measure(_ name: String, frames: Int, setUp: () -> () -> Int) -> Row? {
    rowNumber += 1
    if let only, only != rowNumber { return nil }
    var times: [Double] = []
    var bytes = 0
    for _ in 0..<repetitions {
        let body = setUp()
        let start = cpuNanoseconds()
        bytes = body()
        times.append(Double(cpuNanoseconds() - start) / Double(frames) / 1_000_000)
    }
    return Row(name: name, milliseconds: times, bytes: bytes / frames)
}

func letterFrames(count: Int) -> [ScreenBuffer] {
    (0..<count).map { frame in
        var buffer = ScreenBuffer(size: size)
        for y in 0..<size.height {
            let letter = Character(UnicodeScalar(UInt8(65 + (y + frame) % 26)))
            buffer.write(String(repeating: letter, count: size.width), x: 0, y: y, style: y % 2 == 0 ? .bold : .plain)
        }
        return buffer
    }
}

func mixedFrames(count: Int) -> [ScreenBuffer] {
    let words = ["商品详情", "Golden sunset in Kyoto", "─────", "⭐ 8.4", "Ada Lovelace", "文具 Stationery", "› ", "│"]
    let colors: [TerminalColor?] = [nil, .red, .cyan, .indexed(208), .brightBlue]
    return (0..<count).map { frame in
        var buffer = ScreenBuffer(size: size)
        for y in 0..<size.height {
            var x = 0
            // Never one frame's rows moved (which the renderer would scroll): every cell changes.
            var index = y * 3 + frame
            while x < size.width {
                let style = Style(bold: index % 3 == 0, dim: index % 5 == 0, reverse: index % 7 == 0, foreground: colors[index % colors.count])
                x = buffer.write(words[index % words.count] + " ", x: x, y: y, style: style)
                index += 1
            }
        }
        return buffer
    }
}

var rows: [Row?] = []

let letters = letterFrames(count: 50)
rows.append(measure("200×60, every cell changed", frames: letters.count) {
    var renderer = Renderer()
    _ = renderer.render(letters[letters.count - 1])
    return {
        var bytes = 0
        for buffer in letters {
            let output = renderer.render(buffer)
            emit(output)
            bytes += output.count
        }
        return bytes
    }
})

rows.append(measure("200×60, one row changed", frames: 200) {
    var base = letters[0]
    var renderer = Renderer()
    _ = renderer.render(base)
    var edited: [ScreenBuffer] = []
    for step in 0..<200 {
        base.write("row \(step)", x: 10, y: step % size.height)
        edited.append(base)
    }
    return {
        var bytes = 0
        for buffer in edited {
            let output = renderer.render(buffer)
            emit(output)
            bytes += output.count
        }
        return bytes
    }
})

let mixed = mixedFrames(count: 50)
rows.append(measure("200×60 mixed (CJK, borders, colours), every cell changed", frames: mixed.count) {
    var renderer = Renderer()
    _ = renderer.render(mixed[mixed.count - 1])
    return {
        var bytes = 0
        for buffer in mixed {
            let output = renderer.render(buffer)
            emit(output)
            bytes += output.count
        }
        return bytes
    }
})

let lines = (0..<size.height).map { y in String(repeating: "Golden sunset in Kyoto · 商品 ", count: 8) + "\(y)" }
rows.append(measure("compose: 60 rows of text into a 200×60 buffer", frames: 50) {
    return {
        var cells = 0
        for _ in 0..<50 {
            var buffer = ScreenBuffer(size: size)
            for (y, line) in lines.enumerated() { buffer.write(line, x: 0, y: y, clip: Rect(x: 0, y: 0, width: size.width, height: size.height)) }
            cells += buffer[0, 0].text.count
        }
        return cells * 0
    }
})

let listRows = (0..<10_000).map { ListView.Row("Row \($0) · " + String(repeating: "lorem ipsum ", count: 10)) }
rows.append(measure("10,000-row list on 200×60, down one row (whole frame)", frames: 200) {
    let list = ListView()
    list.rows = listRows
    let screen = TerminalScreen(list)
    var renderer = Renderer()
    _ = renderer.render(screen.render(size: size))
    for _ in 0..<100 { screen.handle(.down) }
    _ = renderer.render(screen.render(size: size))
    return {
        var bytes = 0
        for _ in 0..<200 {
            screen.handle(.down)
            let output = renderer.render(screen.render(size: size))
            emit(output)
            bytes += output.count
        }
        return bytes
    }
})

print("| frame (TerminalUI, release) | ms/frame, thread CPU, median (min–max) of \(repetitions) | bytes/frame |")
print("|---|---:|---:|")
for row in rows.compactMap({ $0 }) { print(row.line) }
