import Dispatch
import MVVM
import Observation
import PersonProfile
import Signals
import Testing

/// PV-V, issue 18: the person app is written the way seed 000 writes its view models for
/// RACObserve: an `@Observable` view model with plain properties, which the view observes with
/// `observation(of:_:)`. These tests observe it exactly as the screen does, its people coming
/// from the offline service on virtual time.
@MainActor @Suite struct PersonBrowserTests {
    /// Lets the main queue run what is queued (Observation's re-read after a change).
    func mainQueueTurn() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    @Test func theViewSeesTheSelectedPersonThenEachChange() async {
        let fixture = PersonFixture()
        let viewModel = PersonBrowserViewModel(services: fixture.services)
        let names = Locked<[String?]>([])
        let subscription = observation(of: viewModel, \.current).map { $0?.nameText }.sink(value: { name in names.withLock { $0.append(name) } })
        defer { subscription.dispose() }
        #expect(names.value == [nil], "nobody until the people arrive")
        fixture.navigator.push(viewModel)
        fixture.scheduler.run()
        await mainQueueTurn()
        let first = viewModel.people[0].nameText, second = viewModel.people[1].nameText
        #expect(names.value == [nil, first], "the people arrived")
        viewModel.selectedIndex = 1
        await mainQueueTurn()
        #expect(names.value == [nil, first, second])
        viewModel.selectedIndex = 99
        await mainQueueTurn()
        #expect(names.value.last == viewModel.people.last?.nameText, "out of range selects the nearest")
    }

    /// PV-V: the screen's status, observed: loading, then nothing to say once the people are
    /// there.
    @Test func theViewSeesLoadingThenThePeople() async {
        let fixture = PersonFixture()
        let viewModel = PersonBrowserViewModel(services: fixture.services)
        let statuses = Locked<[String?]>([])
        let rows = Locked<[Int]>([])
        let status = observation(of: viewModel, \.statusText).sink(value: { text in statuses.withLock { $0.append(text) } })
        let people = observation(of: viewModel, \.people).sink(value: { people in rows.withLock { $0.append(people.count) } })
        defer { status.dispose(); people.dispose() }
        fixture.navigator.push(viewModel)
        await mainQueueTurn()
        #expect(statuses.value.last == "Loading people…")
        fixture.scheduler.run()
        await mainQueueTurn()
        #expect(statuses.value.last == .some(nil))
        #expect(rows.value == [0, PersonCatalog.people.count])
    }

    /// The stream ends with the view model (it is a LifetimeOwner), so a screen's bindings do
    /// not outlive it.
    @Test func observingEndsWhenTheViewModelGoes() {
        let fixture = PersonFixture()
        var viewModel: PersonBrowserViewModel? = PersonBrowserViewModel(services: fixture.services)
        let ended = Locked(false)
        let subscription = observation(of: viewModel!, \.current).sink(completion: { _ in ended.withLock { $0 = true } })
        defer { subscription.dispose() }
        viewModel = nil
        #expect(ended.value)
    }
}
