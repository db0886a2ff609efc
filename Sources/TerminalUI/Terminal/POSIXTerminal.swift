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

    /// Whether standard error, when it is the terminal, is kept in a temporary file while the UI
    /// runs and shown once the terminal is restored (however the app ends, a crash included).
    let captureStandardError: Bool

    public init(captureStandardError: Bool = true) {
        self.captureStandardError = captureStandardError
    }

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
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        TerminalRestore.install(original: original, raw: raw, captureStandardError: captureStandardError)
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else {
            TerminalRestore.uninstall()
            throw TerminalError.notATerminal
        }
        write(Array(TerminalRestore.enterSequence.utf8))
    }

    /// Restores the terminal, stops the process as Ctrl-Z would in cooked mode (SIGTSTP with its
    /// default action), and takes the terminal back when it is continued (`fg`).
    public func suspend() {
        TerminalRestore.suspendFromSignal()
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

#if canImport(Glibc)
typealias SignalAction = Glibc.sigaction
#else
typealias SignalAction = Darwin.sigaction
#endif

/// Restores the terminal from a signal handler: only async-signal-safe calls (write, read,
/// lseek, tcsetattr, sigaction, pthread_sigmask, raise) on state prepared in advance.
///
/// - Crash signals and the other signals whose default action ends the process (QUIT, USR1,
///   USR2, ALRM, PIPE, …) restore the terminal, copy what was written to standard error while
///   the full-screen UI ran to the real standard error, and die of the same signal (re-raised
///   with the default action, so the exit status stays honest).
/// - SIGTSTP (Ctrl-Z, sent by the app as `raise(SIGTSTP)`, or `kill -TSTP`) restores the
///   terminal, stops with the default action, and when continued takes the terminal back (raw
///   mode, alternate screen), re-arms itself, and sends the process SIGWINCH so that the app
///   repaints the whole screen.
enum TerminalRestore {
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[?25l\u{1B}[2J"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"

    // SAFETY: written by `install`/`uninstall` on the thread that runs the app, before the
    // handlers are installed or after they are removed, and only read by the handlers; a
    // handler runs on the thread that received the signal.
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var raw = termios()
    nonisolated(unsafe) static var active = false
    nonisolated(unsafe) static var leaveBytes: [UInt8] = Array(leaveSequence.utf8)
    nonisolated(unsafe) static var enterBytes: [UInt8] = Array(enterSequence.utf8)
    /// The actions that were in place before `install`, by signal number.
    // SAFETY: as above: written by `install` before a handler is set, read by `uninstall`.
    nonisolated(unsafe) static var previous = [SignalAction](repeating: SignalAction(), count: 65)
    /// Standard error while the UI runs: an unlinked temporary file (−1 when not captured).
    // SAFETY: set before the handlers are installed and cleared after they are removed; the
    // handlers only read it (and `realError`, `copyBuffer`) to copy the file with pread/write.
    nonisolated(unsafe) static var capturedError: Int32 = -1
    /// The real standard error, duplicated before it was redirected (−1 when not captured).
    // SAFETY: see `capturedError`.
    nonisolated(unsafe) static var realError: Int32 = -1
    /// The buffer the handlers copy standard error through (allocated in advance).
    // SAFETY: allocated once and never freed; only used to copy standard error (at most one
    // copy at a time in practice: the app's thread at exit, or a handler that then dies).
    nonisolated(unsafe) static var copyBuffer = UnsafeMutableRawPointer.allocate(byteCount: 4_096, alignment: 16)

    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// Signals whose default action ends the process (besides the crash signals, and TERM,
    /// INT and HUP, which the app handles on its run loop). QUIT is taken from the Swift
    /// runtime's backtracer; the others only when their action is still the default one (an
    /// ignored SIGPIPE or a `nohup`-like setting stays as it is).
    static let fatalSignals: [Int32] = {
        var signals: [Int32] = [SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS]
        #if os(Linux)
        signals += [SIGSTKFLT, SIGPWR]
        #endif
        return signals
    }()

    static func install(original: termios, raw rawSettings: termios, captureStandardError: Bool) {
        saved = original
        raw = rawSettings
        if captureStandardError { startCapturingStandardError() }
        active = true
        for signalNumber in crashSignals + [SIGQUIT] {
            setHandler(fatalHandler, for: signalNumber)
        }
        for signalNumber in fatalSignals where signalNumber != SIGQUIT && isDefault(signalNumber) {
            setHandler(fatalHandler, for: signalNumber)
        }
        if isDefault(SIGTSTP) { setHandler(suspendHandler, for: SIGTSTP) }
    }

    static func uninstall() {
        active = false
        for signalNumber in crashSignals + fatalSignals + [SIGTSTP] {
            var old = previous[Int(signalNumber)]
            if isInstalled(signalNumber) { sigaction(signalNumber, &old, nil) }
        }
        installed = []
        stopCapturingStandardError()
    }

    // SAFETY: only touched by `install`/`uninstall` on the app's thread, never by a handler.
    nonisolated(unsafe) static var installed: Set<Int32> = []

    static func isInstalled(_ signalNumber: Int32) -> Bool { installed.contains(signalNumber) }

    static func isDefault(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        sigaction(signalNumber, nil, &current)
        #if canImport(Glibc)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 0
        #else
        return unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self) == 0
        #endif
    }

    /// A `sigaction` running `handler` (nil: the default action) with an empty mask; built
    /// in place, so it may be used inside a signal handler.
    static func action(_ handler: (@convention(c) (Int32) -> Void)?, flags: Int32 = 0) -> sigaction {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        return action
    }

    static func setHandler(_ handler: @convention(c) (Int32) -> Void, for signalNumber: Int32) {
        var action = action(handler, flags: signalNumber == SIGTSTP ? SA_RESTART : 0)
        if !installed.contains(signalNumber) {
            sigaction(signalNumber, &action, &previous[Int(signalNumber)])
            installed.insert(signalNumber)
        } else {
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Sends standard error to an unlinked temporary file while the UI runs, when it is the
    /// terminal (text written there would be drawn over, and vanish with the alternate screen).
    static func startCapturingStandardError() {
        guard capturedError < 0, isatty(2) == 1 else { return }
        var template = Array("/tmp/terminalui-stderr-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let real = dup(2)
        guard real >= 0, dup2(file, 2) >= 0 else {
            close(file)
            if real >= 0 { close(real) }
            return
        }
        capturedError = file
        realError = real
    }

    /// Puts standard error back and shows what was written to it meanwhile.
    static func stopCapturingStandardError() {
        guard capturedError >= 0 else { return }
        copyCapturedError()
        dup2(realError, 2)
        close(realError)
        close(capturedError)
        capturedError = -1
        realError = -1
    }

    /// Copies what was written to standard error to the real one (async-signal-safe).
    static func copyCapturedError() {
        guard capturedError >= 0, realError >= 0 else { return }
        var offset: off_t = 0
        while true {
            let count = pread(capturedError, copyBuffer, 4_096, offset)
            if count <= 0 { break }
            var written = 0
            while written < count {
                let result = Glibc_or_Darwin_write(realError, copyBuffer + written, count - written)
                if result <= 0 { return }
                written += result
            }
            offset += off_t(count)
        }
        // Shown once: what is written from now on starts after it.
        ftruncate(capturedError, 0)
        lseek(capturedError, 0, SEEK_SET)
    }

    /// Restores the terminal now (async-signal-safe).
    static func restoreFromSignal() {
        guard active else { return }
        active = false
        leaveBytes.withUnsafeBytes { _ = Glibc_or_Darwin_write(1, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSAFLUSH, &saved)
        copyCapturedError()
    }

    /// Takes the terminal back after a stop (async-signal-safe).
    static func reenterFromSignal() {
        guard !active else { return }
        // TCSADRAIN, not TCSAFLUSH: keys typed just after `fg` are kept.
        tcsetattr(0, TCSADRAIN, &raw)
        enterBytes.withUnsafeBytes { _ = Glibc_or_Darwin_write(1, $0.baseAddress, $0.count) }
        active = true
    }

    /// Restores the terminal, stops the process (SIGTSTP with its default action), and when it
    /// is continued takes the terminal back and re-arms the handler (async-signal-safe).
    static func suspendFromSignal() {
        let wasActive = active
        restoreFromSignal()
        var defaultAction = action(nil)
        var armed = sigaction()
        sigaction(SIGTSTP, &defaultAction, &armed)
        var tstp = sigset_t()
        sigemptyset(&tstp)
        sigaddset(&tstp, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &tstp, &mask)
        raise(SIGTSTP)
        // Continued (`fg`): the stop happened before `raise` returned.
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGTSTP, &armed, nil)
        if wasActive {
            reenterFromSignal()
            // Ask the app to repaint everything, after the screen was cleared above (its SIGCONT
            // redraw may come before that clear when the stop was a signal on another thread).
            kill(getpid(), SIGWINCH)
        }
    }
}

private let fatalHandler: @convention(c) (Int32) -> Void = { signalNumber in
    TerminalRestore.restoreFromSignal()
    signal(signalNumber, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, signalNumber)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(signalNumber)
    _exit(128 + signalNumber)
}

private let suspendHandler: @convention(c) (Int32) -> Void = { _ in
    let savedErrno = errno
    TerminalRestore.suspendFromSignal()
    errno = savedErrno
}
