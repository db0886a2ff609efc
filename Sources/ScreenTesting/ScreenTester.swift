import MVVM
import ScreenKit
import Signals
import SignalsTesting

/// Drives an app through its screen descriptions in a test, as a person would, with no view
/// layer: a `ScreenDriver` (find elements by their text, label or role, type, press, choose,
/// select rows, scroll to a list's end, go back, read the whole screen as text) that also
/// advances the virtual time the app runs on.
///
/// ```swift
/// let tester = ScreenTester(navigator: navigator, registry: registry, scheduler: scheduler)
/// try tester.type("sunset", into: "Search")
/// tester.advance(by: .seconds(1))          // the debounce passes in virtual time
/// try tester.press("Go")
/// #expect(tester.contains("120 photos"))
/// ```
@MainActor
public final class ScreenTester: ScreenDriver {
    public let scheduler: TestScheduler?

    /// A tester showing the navigator's top screen now, and each new top screen as soon as the
    /// navigator changes (as a view layer does: a screen's `onAppear` runs then); `scheduler`
    /// is the virtual time the app runs on.
    public init(navigator: Navigator, registry: ScreenRegistry<Screen>, scheduler: TestScheduler? = nil) {
        self.scheduler = scheduler
        super.init(navigator: navigator, registry: registry)
    }

    /// Advances virtual time (the scheduler given at `init`).
    public func advance(by duration: Duration) {
        precondition(scheduler != nil, "ScreenTester.advance(by:): give the tester the TestScheduler the app runs on")
        scheduler?.advance(by: duration)
    }

    /// Runs every action waiting in virtual time.
    public func run() {
        precondition(scheduler != nil, "ScreenTester.run(): give the tester the TestScheduler the app runs on")
        scheduler?.run()
    }
}
