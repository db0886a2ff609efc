import Foundation
import MVVM
import ScreenKit
import ShowcaseCore
import Signals
import TodoList

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

/// Plain mode: the app's described screens, opened at the address the command line's options
/// name (``ShowcaseApp/address(for:)``, then ``ShowcaseApp/finish(_:on:)``), printed as text
/// (``PlainText``): another view of the same screens, for scripts and pipes. Offline, time runs
/// virtually, so the output is immediate and the same every time; live, it waits for the APIs.
///
/// The run fails (exit status 1) when the screen it ends on shows an alert or an error text;
/// an option that cannot be done (Go disabled for a short search) is a usage error (64).
@MainActor
public struct PlainShowcase {
    let app: ShowcaseApp
    let options: ShowcaseOptions
    let mode: ServiceMode
    let environment: Environment
    let todos: SharedTodos

    /// `todos`: the list the to-do app shows (an empty one in memory by default).
    public init(app: ShowcaseApp, options: ShowcaseOptions, mode: ServiceMode, environment: Environment = Environment(), todos: SharedTodos = SharedTodos()) {
        self.app = app
        self.options = options
        self.mode = mode
        self.environment = environment
        self.todos = todos
    }

    /// The text of the screen; throws a ``ServiceSetupError`` for unusable arguments.
    public func run() throws -> String {
        try outcome().output
    }

    /// The text of the screen and the failure it shows, if any (SH-1); throws a
    /// ``ServiceSetupError`` for unusable arguments.
    public func outcome() throws -> PlainOutcome {
        try outcome(timersLateBy: .zero)
    }

    /// ``outcome()`` with every live timer running `lateness` after it is due, and `answerTimeout`
    /// to wait for the services at each step (tests only).
    func outcome(timersLateBy lateness: Duration, answerTimeout: Duration = .seconds(30)) throws -> PlainOutcome {
        let clock = PlainClock(live: mode == .live, lateness: lateness, answerTimeout: answerTimeout)
        // What is still waiting on virtual time when the run is over is dropped, so the view
        // models it refers to are freed.
        let navigator = Navigator()
        defer {
            navigator.close()
            clock.stop()
        }
        let factory = ServiceFactory(mode: mode, environment: environment, scheduler: clock.scheduler, navigator: navigator, todos: todos)
        let address = try app.address(for: options)
        guard let stack = try ShowcaseAddresses.stack(of: app, at: address, factory: factory) else {
            throw ServiceSetupError(description: "\(app.rawValue) has no screen at \(address)")
        }
        // The driver first: it shows each screen as it is pushed, and follows its alerts from
        // then on (a search that fails at once must reach them).
        let driver = ScreenDriver(navigator: navigator, registry: ShowcaseScreens.registry())
        navigator.push(all: stack)
        clock.pause(app.quietPeriod(for: options))
        var answered = clock.settle { !driver.isWorking }
        do {
            try app.finish(options, on: navigator.top)
        } catch {
            return PlainOutcome(output: driver.text, failure: error.description, exitCode: .usage)
        }
        answered = clock.settle { !driver.isWorking }
        // A list's first rows are on screen, as in a window (a photo's counts load for rows
        // shown for a second).
        if let count = try? driver.rows().count, count > 0 {
            try? driver.show(rows: 0..<min(count, 10))
            clock.pause(.seconds(2))
            answered = clock.settle { !driver.isWorking } && answered
        }
        let failure = driver.failure ?? (answered ? nil : "No answer within \(answerTimeout.components.seconds) s.")
        return PlainOutcome(output: driver.text, failure: failure)
    }
}

/// Time for plain mode: virtual (instant) offline, real when talking to the live APIs.
final class PlainClock: Sendable {
    let scheduler: any Scheduler
    private let virtual: VirtualTimeScheduler?
    private let live: DueActionScheduler?
    /// How long `settle` waits for the live services.
    private let answerTimeout: Duration

    /// `lateness` (tests only) makes every delayed action run that much after it is due, as on
    /// a loaded machine; `answerTimeout` is how long each step waits for the live services.
    init(live: Bool, lateness: Duration = .zero, answerTimeout: Duration = .seconds(30)) {
        self.answerTimeout = answerTimeout
        if live {
            let due = DueActionScheduler(base: SerialQueueScheduler(label: "showcase.plain"), lateness: lateness)
            virtual = nil
            self.live = due
            scheduler = due
        } else {
            let test = VirtualTimeScheduler()
            virtual = test
            self.live = nil
            scheduler = test
        }
    }

    /// Drops whatever is still scheduled in virtual time.
    func stop() {
        virtual?.cancelAll()
    }

    /// Lets time pass until nothing is scheduled (virtual) or, live (30 s at most by default), until every
    /// action due by now has run (a throttle's timer that fires late on a loaded machine) and
    /// `done` holds; returns whether both hold: `false` means the answer did not come in time (a
    /// server that trickles bytes never trips the HTTP timeout, which counts silence only).
    @discardableResult
    func settle(_ done: () -> Bool) -> Bool {
        if let virtual {
            virtual.advance(by: .seconds(30))
            return done()
        }
        guard let live else { return done() }
        // The overdue actions first: one that ran before this check has changed the screen
        // before `done` reads it.
        func settled() -> Bool { !live.hasOverdueActions && done() }
        wait(answerTimeout, until: settled)
        return settled()
    }

    /// Lets `duration` pass: virtually (at once), or really.
    func pause(_ duration: Duration) {
        guard duration > .zero else { return }
        if let virtual {
            virtual.advance(by: duration)
        } else {
            wait(duration, until: { false })
        }
    }

    /// Waits until `done` or `seconds` have passed (the services answer on the clock's serial
    /// queue, not on this thread).
    private func wait(_ duration: Duration, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        while !done() && Date() < deadline { usleep(20_000) }
    }
}

/// A scheduler that knows which of its actions are due and have not run yet, so plain mode
/// waits for a timer that is late rather than reading the screen before it fires.
final class DueActionScheduler: Scheduler {
    private let base: any Scheduler
    private let lateness: Duration
    /// The due instant of each action scheduled and not yet run or cancelled, by a number.
    private let pending = Locked((next: 0, due: [Int: SchedulerInstant]()))

    init(base: any Scheduler, lateness: Duration) {
        self.base = base
        self.lateness = lateness
    }

    var now: SchedulerInstant { base.now }

    /// Whether an action due by now has not run yet.
    var hasOverdueActions: Bool {
        let now = base.now
        return pending.withLock { state in state.due.values.contains { $0 <= now } }
    }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        let id = add(due: base.now)
        base.schedule { [pending] in
            action()
            pending.withLock { _ = $0.due.removeValue(forKey: id) }
        }
    }

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let id = add(due: base.now + max(delay, .zero))
        let timer = base.schedule(after: delay + lateness) { [pending] in
            action()
            pending.withLock { _ = $0.due.removeValue(forKey: id) }
        }
        return AnyDisposable { [pending] in
            timer.dispose()
            pending.withLock { _ = $0.due.removeValue(forKey: id) }
        }
    }

    private func add(due: SchedulerInstant) -> Int {
        pending.withLock { state in
            state.next += 1
            state.due[state.next] = due
            return state.next
        }
    }
}
