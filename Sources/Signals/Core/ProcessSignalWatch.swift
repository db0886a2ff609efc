#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The process's signals (SIGTERM, SIGINT, SIGWINCH…) watched by dispatch sources while a server
/// runs (`WebAppServer.run(stoppingOn:)`) or a terminal app does (`TerminalApp.run()`), and their
/// default actions given back when the watch ends.
///
/// A signal's own action must not take it first: on Darwin (kqueue) it is ignored while watched.
/// On Linux, libdispatch reads a watched signal from a signalfd, and installs, the first time a
/// signal is watched in a process and never again, a handler that passes it to its own thread;
/// after the default action is given back, a signal watched again would never reach it. So the
/// action in place once the first watch of a signal was registered is kept here and put back
/// each later time: a server run twice in one process (stopped, then started again) still stops
/// on its signal, a terminal app run again in one process redraws on a resize.
package struct ProcessSignalWatch {
    /// The action each signal had once its first watch was registered, by signal number.
    private static let registered = Locked<[Int32: sigaction]>([:])

    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]

    /// Watches `signals`; `handler` is called on `queue` with each one that arrives.
    /// Returns once each is registered with the system: a signal sent after it returns is not
    /// missed (one sent before, while its action is to ignore it, would be).
    package static func start(_ signals: [Int32], on queue: DispatchQueue = .global(), handler: @escaping @Sendable (Int32) -> Void) async -> ProcessSignalWatch {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            if var action = registered.withLock({ $0[number] }) {
                sigaction(number, &action, nil)
            } else {
                signal(number, SIG_IGN)
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            // Registration happens after `resume()`, on dispatch's own thread.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { done.resume() }
                source.resume()
            }
            registered.withLock { actions in
                guard actions[number] == nil else { return }
                var action = sigaction()
                sigaction(number, nil, &action)
                actions[number] = action
            }
            sources.append(source)
        }
        return ProcessSignalWatch(sources: sources, signals: signals)
    }

    /// Ends the watch: each signal's default action is given back.
    package func end() {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
