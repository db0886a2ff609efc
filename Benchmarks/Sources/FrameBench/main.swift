import Dispatch
import TerminalUI

// TerminalUI frame cost, release build: render + diff of a full 200×60 screen, every cell
// changed (the worst case), and a one-row change (the usual case).
let size = Size(width: 200, height: 60)
var frames: [ScreenBuffer] = []
for frame in 0..<50 {
    var buffer = ScreenBuffer(size: size)
    for y in 0..<size.height {
        let letter = Character(UnicodeScalar(UInt8(65 + (y + frame) % 26)))
        buffer.write(String(repeating: letter, count: size.width), x: 0, y: y, style: y % 2 == 0 ? .bold : .plain)
    }
    frames.append(buffer)
}
var renderer = Renderer()
var start = DispatchTime.now().uptimeNanoseconds
var bytes = 0
for buffer in frames { bytes += renderer.render(buffer).count }
let full = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(frames.count) / 1_000_000

var base = frames[0]
renderer = Renderer()
_ = renderer.render(base)
start = DispatchTime.now().uptimeNanoseconds
var smallBytes = 0
for step in 0..<200 {
    base.write("row \(step)", x: 10, y: step % size.height)
    smallBytes += renderer.render(base).count
}
let small = Double(DispatchTime.now().uptimeNanoseconds - start) / 200 / 1_000_000

print("| frame | ms/frame | bytes/frame |")
print("|---|---:|---:|")
print("| 200×60, every cell changed | \((full * 100).rounded() / 100) | \(bytes / frames.count) |")
print("| 200×60, one row changed | \((small * 1000).rounded() / 1000) | \(smallBytes / 200) |")
