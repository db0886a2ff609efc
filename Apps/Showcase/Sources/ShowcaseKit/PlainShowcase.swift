import Foundation
import MVVM
import ScreenKit
import ShowcaseCore
import Signals

/// How a `showcase` run ends (SH-1): documented in `--help` and the README.
public enum ShowcaseExitCode: Int32, Sendable, CaseIterable {
    /// Done: the view state is on stdout.
    case success = 0
    /// The app reported a failure (the search or list failed, the login was refused or failed);
    /// the view state is still on stdout, the message on stderr.
    case failure = 1
    /// Bad arguments: an unknown app, list or category, an option the app does not take, a
    /// search too short to run (the message and usage on stderr).
    case usage = 64
    /// Live mode cannot start: no API key, or a base URL that is not http(s) (the message on
    /// stderr; nothing falls back to the offline catalog unless --offline is given).
    case configuration = 78
}

/// What a plain run printed, and whether it failed.
public struct PlainOutcome: Sendable, Equatable {
    /// The view state, for stdout.
    public let output: String
    /// Why the run failed (for stderr), if it did.
    public let failure: String?
    public let exitCode: ShowcaseExitCode

    public init(output: String, failure: String? = nil, exitCode: ShowcaseExitCode? = nil) {
        self.output = output
        self.failure = failure
        self.exitCode = exitCode ?? (failure == nil ? .success : .failure)
    }
}

/// Plain mode: the app's described screens, driven by the command line's options as a person
/// would drive them (``ShowcaseApp/start(_:options:)``'s steps), printed as text
/// (``PlainText``): another view of the same screens, for scripts and pipes. Offline, time runs
/// virtually, so the output is immediate and the same every time; live, it waits for the APIs.
///
/// The run fails (exit status 1) when the screen it ends on shows an alert or an error text;
/// a step that cannot be done (Go disabled for a short search) is a usage error (64).
@MainActor
public struct PlainShowcase {
    let app: ShowcaseApp
    let options: ShowcaseOptions
    let mode: ServiceMode
    let environment: Environment

    public init(app: ShowcaseApp, options: ShowcaseOptions, mode: ServiceMode, environment: Environment = Environment()) {
        self.app = app
        self.options = options
        self.mode = mode
        self.environment = environment
    }

    /// The text of the screen; throws a ``ServiceSetupError`` for unusable arguments.
    public func run() throws -> String {
        try outcome().output
    }

    /// The text of the screen and the failure it shows, if any (SH-1); throws a
    /// ``ServiceSetupError`` for unusable arguments.
    public func outcome() throws -> PlainOutcome {
        let clock = PlainClock(live: mode == .live)
        // What is still waiting on virtual time when the run is over is dropped, so the view
        // models it refers to are freed.
        let navigator = Navigator()
        defer {
            navigator.close()
            clock.stop()
        }
        let factory = ServiceFactory(mode: mode, environment: environment, scheduler: clock.scheduler, navigator: navigator)
        let steps = try app.start(factory, options: options)
        let driver = ScreenDriver(navigator: navigator, registry: ShowcaseScreens.registry())
        var answered = clock.settle { !driver.isWorking }
        for step in steps {
            do {
                try step.perform(driver)
            } catch {
                return PlainOutcome(output: driver.text, failure: step.needs ?? "\(error)", exitCode: .usage)
            }
            clock.pause(step.pause)
            answered = clock.settle { !driver.isWorking }
        }
        // A list's first rows are on screen, as in a window (a photo's counts load for rows
        // shown for a second).
        if let count = try? driver.rows().count, count > 0 {
            try? driver.show(rows: 0..<min(count, 10))
            clock.pause(.seconds(2))
            answered = clock.settle { !driver.isWorking } && answered
        }
        let failure = driver.failure ?? (answered ? nil : "No answer within 30 s.")
        return PlainOutcome(output: driver.text, failure: failure)
    }
}

/// Time for plain mode: virtual (instant) offline, real when talking to the live APIs.
final class PlainClock: Sendable {
    let scheduler: any Scheduler
    private let virtual: VirtualTimeScheduler?

    init(live: Bool) {
        if live {
            virtual = nil
            scheduler = SerialQueueScheduler(label: "showcase.plain")
        } else {
            let test = VirtualTimeScheduler()
            virtual = test
            scheduler = test
        }
    }

    /// Drops whatever is still scheduled in virtual time.
    func stop() {
        virtual?.cancelAll()
    }

    /// Lets time pass until nothing is scheduled (virtual) or `done` holds (live, 30 s at most),
    /// and returns whether `done` holds: `false` means the answer did not come in time (a server
    /// that trickles bytes never trips the HTTP timeout, which counts silence only).
    @discardableResult
    func settle(_ done: () -> Bool) -> Bool {
        if let virtual {
            virtual.advance(by: .seconds(30))
        } else {
            wait(seconds: 30, until: done)
        }
        return done()
    }

    /// Lets `duration` pass: virtually (at once), or really.
    func pause(_ duration: Duration) {
        guard duration > .zero else { return }
        if let virtual {
            virtual.advance(by: duration)
        } else {
            wait(seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18, until: { false })
        }
    }

    /// Waits until `done` or `seconds` have passed (the services answer on the clock's serial
    /// queue, not on this thread).
    private func wait(seconds: Double, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() && Date() < deadline { usleep(20_000) }
    }
}
