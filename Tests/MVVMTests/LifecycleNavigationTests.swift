import PropertyBased
import Dispatch
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
        #expect(appeared.recordedValues.count == 2, "reload when the screen appears again")
        #expect(disappeared.recordedValues.count == 1)
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
            let popped = changes.recordedValues.compactMap { change -> String? in
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
        #expect(navigator.top(ResultsViewModel.self)?.query == "sunset")
        service.pop()
        service.pop()
        #expect(navigator.stack.count == 1, "the first screen is never popped")
        #expect(changes.recordedValues.count == 2)
    }

    @Test func theViewLayerMapsViewModelTypesToScreens() throws {
        let registry = ScreenRegistry<String>()
        registry.register(ResultsViewModel.self) { "Results for \($0.query)" }
        #expect(try registry.screen(for: ResultsViewModel(query: "cat")) == "Results for cat")
        #expect(throws: UnregisteredScreenError.self) { try registry.screen(for: SearchViewModel()) }
    }

    @Test func anUnregisteredViewModelTypeIsAClearError() {
        let registry = ScreenRegistry<String>()
        do {
            _ = try registry.screen(for: SearchViewModel())
            Issue.record("expected an error")
        } catch {
            #expect(error.viewModelType == "SearchViewModel")
            #expect(error.description.contains("register(SearchViewModel.self)"))
        }
    }

    final class Screen: ViewModelLifecycleOwner {
        let name: String
        let lifecycle = ViewModelLifecycle()
        init(_ name: String) { self.name = name }
    }

    /// The navigator drives each view model's lifecycle: active exactly while on top.
    @Test func theVisibleViewModelIsTheActiveOne() {
        let search = Screen("search"), results = Screen("results"), detail = Screen("detail")
        let navigator = Navigator(root: search)
        #expect(search.lifecycle.isActive.value)
        navigator.push(results)
        #expect(!search.lifecycle.isActive.value && results.lifecycle.isActive.value)
        navigator.push(detail)
        #expect(!results.lifecycle.isActive.value && detail.lifecycle.isActive.value)
        navigator.pop()
        #expect(!detail.lifecycle.isActive.value && results.lifecycle.isActive.value, "refresh on return")
        navigator.close()
        #expect([search, results, detail].allSatisfy { !$0.lifecycle.isActive.value })
    }

    /// A push from a view model that is no longer visible (the user left while its request was
    /// in flight) is dropped; from the visible one it goes through.
    @Test func aPushFromAViewModelTheUserLeftIsDropped() {
        let launcher = Screen("launcher"), search = Screen("search")
        let navigator = Navigator(root: launcher)
        defer { navigator.close() }
        navigator.push(search)
        #expect(navigator.push(Screen("results"), from: search))
        navigator.pop()
        navigator.pop()
        #expect(!navigator.push(Screen("late results"), from: search), "search was left")
        #expect(navigator.stack(of: Screen.self).map(\.name) == ["launcher"])
    }

    /// Random pushes and pops from several threads: the changes, replayed in the order they are
    /// delivered, rebuild exactly the final stack, and only the top is active.
    @Test(arguments: 0..<20) func changesArriveInTheOrderTheStackChanged(seed: Int) {
        let root = Screen("root")
        let navigator = Navigator(root: root)
        let replayed = Locked<[ObjectIdentifier]>([ObjectIdentifier(root)])
        let recording = navigator.changes.sink(value: { change in
            replayed.withLock { stack in
                switch change {
                case .pushed(let viewModel): stack.append(ObjectIdentifier(viewModel))
                case .popped(let viewModel):
                    #expect(stack.last == ObjectIdentifier(viewModel), "a pop removes the top as replayed")
                    stack.removeLast()
                }
            }
        })
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var random = UInt64(seed * 31 + thread + 1)
            for step in 0..<300 {
                random = random &* 6364136223846793005 &+ 1442695040888963407
                if random >> 62 == 0 { navigator.pop() } else { navigator.push(Screen("\(thread).\(step)")) }
            }
        }
        let final = navigator.stack
        #expect(replayed.withLock { $0 } == final.map { ObjectIdentifier($0) })
        let active = navigator.stack(of: Screen.self).filter { $0.lifecycle.isActive.value }
        #expect(active.count == 1 && active.first === final.last)
        recording.dispose()
        navigator.close()
    }

    /// `pop(_:)` pops only the view model it names, checked with the push under one lock: when
    /// another push came first, the newcomer stays (the view layer's orphan removal relies on it).
    @Test func popOfANamedViewModelNeverPopsAnother() {
        let root = Screen("root"), orphan = Screen("orphan"), newcomer = Screen("newcomer")
        let navigator = Navigator(root: root)
        defer { navigator.close() }
        navigator.push(orphan)
        navigator.push(newcomer)
        #expect(!navigator.pop(orphan), "not on top: nothing popped")
        #expect(navigator.stack(of: Screen.self).map(\.name) == ["root", "orphan", "newcomer"])
        navigator.pop()
        #expect(navigator.pop(orphan))
        #expect(navigator.stack(of: Screen.self).map(\.name) == ["root"])
        #expect(!navigator.pop(root), "the first screen stays")
    }
}

/// Issue 25: one registry of described screens serves every layer: a layer's registry takes
/// them all, each drawn its way.
@MainActor @Suite struct ScreenRegistryDrawingTests {
    final class A: Sendable {}
    final class B: Sendable {}

    @Test func aLayerTakesEveryScreenOfAnotherRegistryDrawnItsWay() throws {
        let described = ScreenRegistry<String>()
        described.register(A.self) { _ in "screen A" }
        described.register(B.self) { _ in "screen B" }
        let drawn = ScreenRegistry<Int>()
        drawn.register(all: described, drawing: { $0.count * 10 })
        #expect(try drawn.screen(for: A()) == 80)
        #expect(try drawn.screen(for: B()) == 80)
        drawn.register(B.self) { _ in 1 }   // a layer's own screen replaces the drawn one
        #expect(try drawn.screen(for: B()) == 1)
        #expect(throws: UnregisteredScreenError.self) { try drawn.screen(for: Navigator()) }
        // Of two registries included whole that both have a type, the later one draws it; a
        // registration of the type after both wins over them.
        let other = ScreenRegistry<String>()
        other.register(A.self) { _ in "other A, longer" }
        drawn.register(all: other, drawing: { $0.count * 10 })
        #expect(try drawn.screen(for: A()) == 150)
        drawn.register(all: described, drawing: { $0.count })
        #expect(try drawn.screen(for: A()) == 8)
        drawn.register(A.self) { _ in 2 }
        #expect(try drawn.screen(for: A()) == 2)
    }

    final class C: Sendable {}

    /// Generated: registrations of single types and of whole registries, in any order; the
    /// latest one that covers a type draws it (a registry included whole is looked up when
    /// asked, so a screen registered in it later is covered too), as a model of the rule says.
    @Test(arguments: 0..<200)
    func theLatestRegistrationOfATypeWins(seed: Int) throws {
        var random = Xoshiro(seed: (UInt64(seed), 1, 2, 3))  // seeded: a failing case runs again
        let viewModels: [() -> AnyObject] = [{ A() }, { B() }, { C() }]
        let makers: [(ScreenRegistry<Int>, Int) -> Void] = [
            { registry, value in registry.register(A.self) { _ in value } },
            { registry, value in registry.register(B.self) { _ in value } },
            { registry, value in registry.register(C.self) { _ in value } },
        ]
        let others = [ScreenRegistry<Int>(), ScreenRegistry<Int>()]
        let layer = ScreenRegistry<Int>()
        // The model: per type, the order of the layer's own registration and its value; per
        // other registry, when it was included (if it was).
        var own: [Int: (order: Int, value: Int)] = [:]
        var othersOwn: [[Int: Int]] = [[:], [:]]
        var includedAt: [Int?] = [nil, nil]
        var order = 0
        for step in 1...Int.random(in: 1...14, using: &random) {
            let type = Int.random(in: 0..<3, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                order += 1
                makers[type](layer, step)
                own[type] = (order, step)
            case 1:
                let other = Int.random(in: 0..<2, using: &random)
                makers[type](others[other], 100 + step)
                othersOwn[other][type] = 100 + step
            default:
                let other = Int.random(in: 0..<2, using: &random)
                order += 1
                layer.register(all: others[other], drawing: { $0 + 1_000 * (other + 1) })
                includedAt[other] = order
            }
        }
        for index in viewModels.indices {
            var expected = own[index].map { (order: $0.order, value: $0.value) }
            for other in 0..<2 {
                guard let at = includedAt[other], let value = othersOwn[other][index] else { continue }
                if at > (expected?.order ?? 0) { expected = (at, value + 1_000 * (other + 1)) }
            }
            let viewModel = viewModels[index]()
            if let expected {
                #expect(try layer.screen(for: viewModel) == expected.value, "seed \(seed), type \(index)")
            } else {
                #expect(throws: UnregisteredScreenError.self) { try layer.screen(for: viewModel) }
            }
        }
    }
}
