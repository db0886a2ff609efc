import Dispatch
import Signals
import ScreenKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a screen on a terminal: reads keys, draws frames, and restores the terminal however the
/// app ends (quit, a thrown error, Ctrl-C, SIGTERM, SIGINT, SIGHUP, SIGQUIT, a crash signal, or
/// another signal whose default action ends the process). Ctrl-Z or SIGTSTP suspends it with the
/// terminal restored; on SIGCONT the terminal is taken back and the screen repainted.
///
/// Main-actor work and input share the main queue: keys arrive from a reader thread and are
/// handled on the main actor; drawing is coalesced to one frame per main-actor turn however many
/// views changed. Window size changes (SIGWINCH) lay the screen out again and redraw it.
@MainActor
public final class TerminalApp {
    public let screen: TerminalScreen
    public let device: any TerminalDevice
    private var renderer = Renderer()
    private var parser = KeyParser()
    private var frameScheduled = false
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceProtocol] = []
    private var signalWatch: ProcessSignalWatch?
    private var input: (any Disposable)?
    private var escapeFlush: DispatchWorkItem?
    /// Frames drawn so far (for tests and diagnostics).
    public private(set) var framesDrawn = 0

    public init(screen: TerminalScreen, device: any TerminalDevice) {
        self.screen = screen
        self.device = device
        screen.needsDisplay = { [weak self] in self?.setNeedsDisplay() }
    }

    /// Schedules one frame for the end of this main-actor turn.
    public func setNeedsDisplay() {
        guard !frameScheduled else { return }
        frameScheduled = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.drawNow() }
        }
    }

    /// Draws a frame at once (only the cells that changed).
    public func drawNow() {
        frameScheduled = false
        let buffer = screen.render(size: device.size)
        let bytes = renderer.render(buffer)
        if !bytes.isEmpty { device.write(bytes) }
        framesDrawn += 1
    }

    /// Feeds input bytes as the terminal would (tests use it too).
    ///
    /// The text they complete is handled at once (a combining mark that comes in a later read
    /// is joined to its base by the text field). A lone Esc becomes `.escape` after a 40 ms
    /// pause with no more input; an unfinished escape sequence or paste waits for its rest.
    public func receive(_ bytes: [UInt8]) {
        escapeFlush?.cancel()
        escapeFlush = nil
        handle(parser.parse(bytes) + parser.releaseText())
        if parser.hasPending {
            let work = DispatchWorkItem { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.handle(self.parser.flush())
                }
            }
            escapeFlush = work
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(40), execute: work)
        }
    }

    /// What a key does: the app's own keys (Ctrl-C quits, Ctrl-Z suspends: in raw mode the
    /// terminal sends them as bytes 0x03 and 0x1A instead of signals) or a key for the screen.
    public enum Action: Equatable, Sendable {
        case quit
        case suspend
        case key(Key)
    }

    public nonisolated static func action(for key: Key) -> Action {
        switch key {
        case .control("c"): return .quit
        case .control("z"): return .suspend
        default: return .key(key)
        }
    }

    /// Handles keys as if typed.
    public func handle(_ keys: [Key]) {
        for key in keys {
            switch Self.action(for: key) {
            case .quit:
                quit()
                return
            case .suspend:
                suspend()
            case .key(let key):
                screen.handle(key)
            }
        }
        setNeedsDisplay()
    }

    /// Ctrl-Z: restores the terminal and stops the process; once continued (`fg`) the terminal
    /// is taken back and the whole screen repainted (what was on it is unknown).
    public func suspend() {
        device.suspend()
        // On the process's own terminal the SIGCONT handler repaints (once); repainting here
        // too made every `fg` clear and draw the screen twice.
        if !device.isProcessTerminal { redrawAll() }
    }

    /// Redraws everything (after a resize or when the screen may have been disturbed).
    public func redrawAll() {
        renderer.invalidate()
        drawNow()
    }

    /// Whether `quit()` was called.
    public private(set) var hasQuit = false

    /// Ends `run()`; the terminal is restored.
    public func quit() {
        hasQuit = true
        continuation?.resume()
        continuation = nil
    }

    /// Takes over the terminal and runs until `quit()` (or Ctrl-C). The terminal is restored
    /// when it returns or throws, and by the signal handlers if the process is ended.
    public func run() async throws {
        try device.enterRawMode()
        defer {
            for source in sources { source.cancel() }
            sources = []
            signalWatch?.end()
            signalWatch = nil
            input?.dispose()
            input = nil
            device.restore()
            // The local files the app's file fields copied: the view model kept what it moved.
            ReceivedFile.discardTemporaryFiles()
        }
        if device.isProcessTerminal { await watchSignals() }
        input = device.startReading { bytes in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.receive(bytes) }
            }
        }
        startSpinnerTimer()
        redrawAll()
        await withCheckedContinuation { continuation in
            self.continuation = continuation
        }
    }

    /// Resized (SIGWINCH) or continued after a stop (SIGCONT: the terminal was taken back by the
    /// SIGTSTP handler; another program may have drawn meanwhile): redrawn. Ended (SIGTERM, SIGINT,
    /// SIGHUP): the terminal restored, then the process ends. Watched from before the first draw
    /// until `run()` returns; the signals' default actions are given back then.
    private func watchSignals() async {
        signalWatch = await ProcessSignalWatch.start([SIGWINCH, SIGCONT, SIGTERM, SIGINT, SIGHUP], on: .main) { [weak self] signalNumber in
            MainActor.assumeIsolated {
                guard let self else { return }
                if signalNumber == SIGWINCH || signalNumber == SIGCONT {
                    self.redrawAll()
                } else {
                    self.device.restore()
                    exit(128 + signalNumber)
                }
            }
        }
    }

    private func startSpinnerTimer() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                Self.spinners(in: self.screen.root).forEach { $0.tick() }
            }
        }
        timer.resume()
        sources.append(timer)
    }

    static func spinners(in view: View) -> [Spinner] {
        guard !view.isHidden else { return [] }
        return (view as? Spinner).map { [$0] } ?? view.children.flatMap { spinners(in: $0) }
    }
}
