import Dispatch
import MVVM
import Observation
import PersonProfile
import Signals
import Testing

/// PV-V, issue 18: the person app is written the way seed 000 writes its view models for
/// RACObserve: an `@Observable` view model with plain properties, which the view observes with
/// `observe(_:_:)`. These tests observe it exactly as the screen does.
@MainActor @Suite struct PersonBrowserTests {
    /// Lets the main queue run what is queued (Observation's re-read after a change).
    func mainQueueTurn() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    @Test func theViewSeesTheSelectedPersonThenEachChange() async {
        let viewModel = PersonBrowserViewModel()
        let names = Locked<[String]>([])
        let subscription = observation(of: viewModel, \.current).map(\.nameText).sink(value: { name in names.withLock { $0.append(name) } })
        defer { subscription.dispose() }
        let first = viewModel.people[0].nameText, second = viewModel.people[1].nameText
        #expect(names.value == [first], "the current value at once")
        viewModel.selectedIndex = 1
        await mainQueueTurn()
        #expect(names.value == [first, second])
        viewModel.selectedIndex = 99
        await mainQueueTurn()
        #expect(names.value.last == viewModel.people.last?.nameText, "out of range selects the nearest")
    }

    /// The stream ends with the view model (it is a LifetimeOwner), so a screen's bindings do
    /// not outlive it.
    @Test func observingEndsWhenTheViewModelGoes() {
        var viewModel: PersonBrowserViewModel? = PersonBrowserViewModel()
        let ended = Locked(false)
        let subscription = observation(of: viewModel!, \.current).sink(completion: { _ in ended.withLock { $0 = true } })
        defer { subscription.dispose() }
        viewModel = nil
        #expect(ended.value)
    }
}
