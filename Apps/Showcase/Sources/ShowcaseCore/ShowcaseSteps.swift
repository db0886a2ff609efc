import MVVM
import ScreenKit
import Signals

/// One thing a person does on an app's screen, as an option asks for it: every layer (plain
/// mode, the terminal) does it through a ``ScreenDriver``, on the app's described screens.
public struct ShowcaseStep: Sendable {
    /// What the step does, on the screen the driver shows.
    public let perform: @MainActor @Sendable (ScreenDriver) throws -> Void
    /// What the option needs, said when the step cannot be done (a usage error), instead of
    /// what the screen lacked.
    public let needs: String?
    /// How long the screen works after the step without showing it (a debounce): live, plain
    /// mode waits this long before it waits for the screen's work to end.
    public let pause: Duration

    public init(needs: String? = nil, pause: Duration = .zero, _ perform: @escaping @MainActor @Sendable (ScreenDriver) throws -> Void) {
        self.perform = perform
        self.needs = needs
        self.pause = pause
    }
}

/// Does an app's steps in a view layer that shows the same screens: each as soon as it can be
/// done (the screen is not working and has what the step needs), checked every 50 ms.
@MainActor
public final class ShowcaseStepRunner {
    /// Released once every step is done (it follows the navigator until then).
    private var driver: ScreenDriver?
    private let scheduler: any Scheduler
    private var steps: [ShowcaseStep]
    private let failed: @MainActor (String) -> Void
    private let finished: @MainActor () -> Void
    private var attempts = 0
    /// Whether every step is done, or the run ended at one that could not be.
    public private(set) var isDone = false
    private let pending = SerialDisposable()

    /// Starts doing `steps` on the navigator's screens (the view layer runs their `onAppear`);
    /// a step that cannot be done within `patience` ends the run and is reported to `failed`.
    /// `finished` is called once the run is over (after `failed`, if a step failed).
    public init(_ steps: [ShowcaseStep], navigator: Navigator, registry: ScreenRegistry<Screen>, scheduler: any Scheduler,
                patience: Duration = .seconds(10), failed: @escaping @MainActor (String) -> Void,
                finished: @escaping @MainActor () -> Void = {}) {
        driver = ScreenDriver(navigator: navigator, registry: registry, runsOnAppear: false)
        self.scheduler = scheduler
        self.steps = steps
        self.failed = failed
        self.finished = finished
        maximumAttempts = max(1, Int(patience / .milliseconds(50)))
        attempt()
    }

    private let maximumAttempts: Int

    deinit { pending.dispose() }

    private func attempt() {
        defer {
            if steps.isEmpty, !isDone {
                driver = nil
                isDone = true
                finished()
            }
        }
        while let step = steps.first, let driver {
            do {
                if driver.isWorking { throw ScreenDriverError.busy("the screen") }
                try step.perform(driver)
                steps.removeFirst()
                attempts = 0
            } catch {
                attempts += 1
                if attempts >= maximumAttempts {
                    steps = []
                    failed(step.needs ?? "\(error)")
                    return
                }
                pending.inner = scheduler.schedule(after: .milliseconds(50)) { [weak self] in
                    MainScheduler.runOnMainActor { self?.attempt() }
                }
                return
            }
        }
    }
}
