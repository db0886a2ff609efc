import Foundation
import Signals

/// Refusals, logged at most `linesPerSecond` a second (a client sending garbage in a loop, or
/// opening sessions in a loop, must not make the server write a line for each), with the count
/// of those left out said on the next line logged. Shared by WebUI's sessions and WebServer.
package final class RefusalLog: Sendable {
    private let log: @Sendable (String) -> Void
    private let linesPerSecond: Int
    private let now: @Sendable () -> Int
    private let state = Locked<(second: Int, logged: Int, skipped: Int)>((-1, 0, 0))

    /// Logs to `log`, at most `linesPerSecond` lines a second of the wall clock.
    package convenience init(linesPerSecond: Int = 1, log: @escaping @Sendable (String) -> Void) {
        self.init(linesPerSecond: linesPerSecond, now: { Int(Date().timeIntervalSince1970) }, log: log)
    }

    /// Logs to `log`, at most `linesPerSecond` lines a second; `now` gives the second a refusal
    /// falls in (a test's own clock).
    package init(linesPerSecond: Int, now: @escaping @Sendable () -> Int, log: @escaping @Sendable (String) -> Void) {
        self.log = log
        self.linesPerSecond = max(1, linesPerSecond)
        self.now = now
    }

    package func callAsFunction(_ line: String) {
        let second = now()
        let skipped: Int? = state.withLock { state in
            if state.second != second {
                let skipped = state.skipped
                state = (second, 1, 0)
                return skipped
            }
            guard state.logged < linesPerSecond else {
                state.skipped += 1
                return nil
            }
            state.logged += 1
            return 0
        }
        guard let skipped else { return }
        log(skipped > 0 ? "\(line) (\(skipped)\(Self.leftOutSuffix)" : line)
    }

    private static let leftOutSuffix = " more refused before it, not logged)"

    /// How many refusals a logged line says were left out before it (0 when it says none):
    /// what a reader of the log (or a test) adds to the lines to count every refusal.
    package static func leftOut(in line: String) -> Int {
        guard line.hasSuffix(leftOutSuffix), let open = line.range(of: " (", options: .backwards) else { return 0 }
        return Int(line[open.upperBound...].prefix { $0.isNumber }) ?? 0
    }
}
