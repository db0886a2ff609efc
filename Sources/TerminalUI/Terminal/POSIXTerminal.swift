import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's own terminal (standard input and output): raw mode, the alternate screen,
/// bracketed paste and a hidden cursor while an app runs, all undone by `restore()`.
public final class POSIXTerminal: TerminalDevice, Sendable {
    /// The settings before raw mode, put back by `restore()`. (A signal handler restores from
    /// the async-signal-safe copy in `TerminalRestore` instead, never through this lock.)
    private let saved = Locked<termios?>(nil)

    public init() {}

    /// Whether standard input and output are a terminal.
    public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    public var size: Size {
        var window = winsize()
        #if canImport(Glibc)
        let result = ioctl(1, UInt(TIOCGWINSZ), &window)
        #else
        let result = ioctl(1, TIOCGWINSZ, &window)
        #endif
        guard result == 0, window.ws_col > 0, window.ws_row > 0 else { return Size(width: 80, height: 24) }
        return Size(width: Int(window.ws_col), height: Int(window.ws_row))
    }

    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc_or_Darwin_write(1, $0.baseAddress, $0.count) }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    public func enterRawMode() throws {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { throw TerminalError.notATerminal }
        saved.withLock { $0 = original }
        TerminalRestore.install(original)
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else { throw TerminalError.notATerminal }
        write(Array(TerminalRestore.enterSequence.utf8))
    }

    public var isProcessTerminal: Bool { true }

    public func startReading(_ onBytes: @escaping @Sendable ([UInt8]) -> Void) -> (any Disposable)? {
        InputReader.start(onBytes)
    }

    public func restore() {
        write(Array(TerminalRestore.leaveSequence.utf8))
        if var settings = saved.value { tcsetattr(0, TCSAFLUSH, &settings) }
        TerminalRestore.uninstall()
    }
}

/// Reads standard input on its own queue (not the main actor).
enum InputReader {
    nonisolated static func start(_ onBytes: @escaping @Sendable ([UInt8]) -> Void) -> any Disposable {
        let source = DispatchSource.makeReadSource(fileDescriptor: 0, queue: DispatchQueue(label: "TerminalUI.input"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 1_024)
            let count = read(0, &buffer, buffer.count)
            if count > 0 { onBytes(Array(buffer[0..<count])) }
        }
        source.resume()
        let box = CancellableSource(source)
        return AnyDisposable { box.cancel() }
    }
}

/// A dispatch source that may be cancelled from any thread.
final class CancellableSource: @unchecked Sendable {
    // SAFETY: the source is only cancelled through it; `DispatchSource.cancel()` is thread-safe
    // and idempotent.
    private let source: any DispatchSourceProtocol

    init(_ source: any DispatchSourceProtocol) {
        self.source = source
    }

    func cancel() {
        source.cancel()
    }
}

/// The terminal is not interactive.
public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal

    public var description: String {
        "standard input is not a terminal: run in a terminal, or use --plain"
    }
}

@inline(__always)
func Glibc_or_Darwin_write(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, pointer, count)
    #else
    return Darwin.write(descriptor, pointer, count)
    #endif
}

/// Restores the terminal from a signal handler: only async-signal-safe calls (write, tcsetattr)
/// on state prepared in advance.
enum TerminalRestore {
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[?25l\u{1B}[2J"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"

    // SAFETY: written before the handlers are installed and only read by them; a handler runs
    // on the thread that received the signal and then re-raises with the default action.
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var active = false
    nonisolated(unsafe) static var leaveBytes: [UInt8] = Array(leaveSequence.utf8)

    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    static func install(_ original: termios) {
        saved = original
        active = true
        for signalNumber in crashSignals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = crashHandler
            #else
            action.__sigaction_u.__sa_handler = crashHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
        }
    }

    static func uninstall() {
        active = false
        for signalNumber in crashSignals { signal(signalNumber, SIG_DFL) }
    }

    /// Restores the terminal now (async-signal-safe).
    static func restoreFromSignal() {
        guard active else { return }
        active = false
        leaveBytes.withUnsafeBytes { _ = Glibc_or_Darwin_write(1, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSAFLUSH, &saved)
    }
}

private let crashHandler: @convention(c) (Int32) -> Void = { signalNumber in
    TerminalRestore.restoreFromSignal()
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
