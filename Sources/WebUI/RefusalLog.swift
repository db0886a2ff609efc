import Foundation
import Signals

/// Refusals, logged at most `linesPerSecond` a second (a client sending garbage in a loop, or
/// opening sessions in a loop, must not make the server write a line for each), with the count
/// of those left out said on the next line logged. Shared by WebUI's sessions and WebServer.
package final class RefusalLog: Sendable {
    private let log: @Sendable (String) -> Void
    private let linesPerSecond: Int
    private let state = Locked<(second: Int, logged: Int, skipped: Int)>((-1, 0, 0))

    /// Logs to `log`, at most `linesPerSecond` lines a second.
    package init(linesPerSecond: Int = 1, log: @escaping @Sendable (String) -> Void) {
        self.log = log
        self.linesPerSecond = max(1, linesPerSecond)
    }

    package func callAsFunction(_ line: String) {
        let second = Int(Date().timeIntervalSince1970)
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
        log(skipped > 0 ? "\(line) (\(skipped) more refused before it, not logged)" : line)
    }
}
