import MVVM
import Signals
import SignalsTesting
import Testing

/// T-UI5: view-model lifecycle.
@Suite struct LifecycleTests {
    @Test func reportsBecomingActiveAndInactive() {
        let lifecycle = ViewModelLifecycle()
        let appeared = Recorder<Void, Never>()
        appeared.subscribe(to: lifecycle.didBecomeActive)
        let disappeared = Recorder<Void, Never>()
        disappeared.subscribe(to: lifecycle.didBecomeInactive)
        #expect(!lifecycle.isActive.value)
        lifecycle.activate()
        lifecycle.activate()
        lifecycle.deactivate()
        lifecycle.activate()
        #expect(appeared.values.count == 2, "reload when the screen appears again")
        #expect(disappeared.values.count == 1)
    }

    @Test func forwardsOnlyWhileActiveAndResubscribesOnReactivation() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let lifecycle = ViewModelLifecycle()
        // The documented diagram: the lifecycle changes come first at their ticks.
        scheduler.schedule(atTick: 1) { lifecycle.activate() }
        scheduler.schedule(atTick: 5) { lifecycle.deactivate() }
        scheduler.schedule(atTick: 7) { lifecycle.activate() }
        let source = scheduler.hot("ab-c-d-e-f-|")
        let forwarded = scheduler.record(source.signal.forward(whileActive: lifecycle))
        scheduler.run()
        #expect(scheduler.diagram(of: forwarded) == "-b-c---e-f-|")
        #expect(source.subscriptions == ["-^---!", "-------^---!"])
    }
}

/// T-UI6: navigation from view models.
@MainActor @Suite struct NavigationTests {
    final class SearchViewModel: Sendable {}
    final class ResultsViewModel: Sendable {
        let query: String
        init(query: String) { self.query = query }
    }

    /// Closing ends the navigator ↔ view model cycle: every view model goes (newest first),
    /// `changes` completes, and the view models are freed.
    @Test func closingRemovesEveryViewModelAndFreesThem() {
        weak var weakRoot: SearchViewModel?
        weak var weakResults: ResultsViewModel?
        do {
            let changes = Recorder<NavigationChange, Never>()
            let root = SearchViewModel()
            let results = ResultsViewModel(query: "sunset")
            weakRoot = root
            weakResults = results
            let navigator = Navigator(root: root)
            changes.subscribe(to: navigator.changes)
            navigator.push(results)
            navigator.close()
            #expect(navigator.stack.isEmpty)
            let popped = changes.values.compactMap { change -> String? in
                if case .popped(let viewModel) = change { return String(describing: type(of: viewModel)) }
                return nil
            }
            #expect(popped == ["ResultsViewModel", "SearchViewModel"])
            #expect(changes.completion != nil)
        }
        #expect(weakRoot == nil && weakResults == nil)
    }

    /// A push that comes after `close()` (a late answer) is ignored, so the closed navigator does
    /// not start a new cycle with it.
    @Test func aPushAfterCloseIsIgnored() {
        let navigator = Navigator(root: SearchViewModel())
        navigator.close()
        weak var late: ResultsViewModel?
        do {
            let results = ResultsViewModel(query: "late")
            late = results
            navigator.push(results)
        }
        #expect(navigator.stack.isEmpty)
        #expect(late == nil)
    }

    @Test func viewModelsPushAndPopThroughTheService() {
        let navigator = Navigator(root: SearchViewModel())
        defer { navigator.close() }
        let changes = Recorder<NavigationChange, Never>()
        changes.subscribe(to: navigator.changes)
        let service: any NavigationService = navigator
        service.push(ResultsViewModel(query: "sunset"))
        #expect(navigator.stack.count == 2)
        #expect((navigator.top as? ResultsViewModel)?.query == "sunset")
        service.pop()
        service.pop()
        #expect(navigator.stack.count == 1, "the first screen is never popped")
        #expect(changes.values.count == 2)
    }

    @Test func theViewLayerMapsViewModelTypesToScreens() throws {
        let registry = ScreenRegistry<String>()
        registry.register(ResultsViewModel.self) { "Results for \($0.query)" }
        #expect(registry.screen(for: ResultsViewModel(query: "cat")) == "Results for cat")
        #expect(registry.canShow(ResultsViewModel(query: "")))
        #expect(!registry.canShow(SearchViewModel()))
    }

    @Test func anUnregisteredViewModelTypeIsAClearError() {
        let registry = ScreenRegistry<String>()
        do {
            _ = try registry.makeScreen(for: SearchViewModel())
            Issue.record("expected an error")
        } catch {
            #expect(error.viewModelType == "SearchViewModel")
            #expect(error.description.contains("register(SearchViewModel.self)"))
        }
    }
}
