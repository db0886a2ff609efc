import MVVM
import PersonProfile
import Signals
import SignalsTesting
import Testing

/// Issue 18, SH-3: the view-model lifecycle at work in the person app: a browser that is not
/// the visible screen neither fetches nor navigates, and leaving it cancels its load.
@MainActor @Suite struct PersonLifecycleTests {
    final class Cover: Sendable {}

    /// PV-V, SH-3: no request before the browser is shown (not even when asked), one when it
    /// is, and none again when it is shown again after a detail: it has its people.
    @Test func anInactiveBrowserDoesNotFetch() {
        let fixture = PersonFixture()
        let browser = PersonBrowserViewModel(services: fixture.services)
        browser.load()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value == 0, "no request before the browser is shown")
        #expect(browser.people.isEmpty && !browser.isLoading)

        fixture.navigator.push(browser)
        #expect(fixture.spy.requests.value == 1, "shown: the people are requested")
        #expect(browser.isLoading)
        #expect(browser.statusText == "Loading people…")
        fixture.scheduler.run()
        #expect(browser.people.map(\.nameText) == PersonFixture.names)
        #expect(!browser.isLoading && browser.statusText == nil)

        browser.select(index: 0)  // a detail covers the browser
        #expect(!browser.lifecycle.isActive.value)
        browser.load()
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value == 1, "a covered browser fetches nothing")
        fixture.navigator.pop()
        #expect(browser.lifecycle.isActive.value)
        fixture.scheduler.run()
        #expect(fixture.spy.requests.value == 1, "shown again with its people: no new request")
        #expect(browser.people.map(\.nameText) == PersonFixture.names)
    }

    /// PV-V, SH-3: Enter on a person opens their detail only while the browser is the visible
    /// screen; a select that arrives while a detail covers it changes nothing.
    @Test func aCoveredBrowserDoesNotNavigate() throws {
        let fixture = PersonFixture()
        let browser = PersonBrowserViewModel(services: fixture.services)
        fixture.navigator.push(browser)
        fixture.scheduler.run()
        browser.select(index: 0)
        let detail = try #require(fixture.navigator.top(PersonDetailViewModel.self))
        #expect(detail.nameText == "Dr. Grace Hopper")

        browser.select(index: 1)  // covered
        #expect(fixture.navigator.stack.count == 3, "no detail opened from a covered browser")
        #expect(fixture.navigator.top(PersonDetailViewModel.self) === detail)

        detail.back()
        #expect(fixture.navigator.top(PersonBrowserViewModel.self) === browser)
        browser.select(index: 1)
        #expect(fixture.navigator.top(PersonDetailViewModel.self)?.nameText == "Ada Lovelace")
    }

    /// SH-3: leaving the browser while its people load cancels the request (its timer is gone,
    /// not merely ignored) and nothing arrives later; shown again, it loads again.
    @Test func leavingWhileLoadingCancelsTheLoad() {
        let fixture = PersonFixture()
        let browser = PersonBrowserViewModel(services: fixture.services)
        fixture.navigator.push(browser)
        fixture.scheduler.advance(by: .milliseconds(200))
        #expect(browser.isLoading)
        #expect(fixture.scheduler.pendingActionCount == 1, "the request is waiting for its answer")

        fixture.navigator.pop()  // Esc
        #expect(!browser.isLoading, "the load ends with the screen")
        #expect(fixture.scheduler.pendingActionCount == 0, "the request is cancelled")
        fixture.scheduler.advance(by: .seconds(5))
        #expect(browser.people.isEmpty, "no answer after leaving")

        fixture.navigator.push(browser)
        #expect(fixture.spy.requests.value == 2, "a load cut short is made again")
        fixture.scheduler.run()
        #expect(browser.people.map(\.nameText) == PersonFixture.names)
    }

    /// PV-V: a failed load shows the error's reason; showing the browser again retries, and
    /// the people appear once the service answers.
    @Test func aFailedLoadIsShownAndRetriedWhenShownAgain() {
        let fixture = PersonFixture()
        fixture.offline.failRequests(with: PersonError("The people service is down."))
        let browser = PersonBrowserViewModel(services: fixture.services)
        fixture.navigator.push(browser)
        fixture.scheduler.run()
        #expect(browser.errorText == "The people service is down.")
        #expect(browser.statusText == "The people service is down.")
        #expect(!browser.isLoading && browser.people.isEmpty)

        fixture.offline.failRequests(with: nil)
        fixture.navigator.push(Cover())
        fixture.navigator.pop()
        #expect(fixture.spy.requests.value == 2, "a failed load is retried when the browser shows again")
        #expect(browser.errorText == nil && browser.statusText == "Loading people…")
        fixture.scheduler.run()
        #expect(browser.people.map(\.nameText) == PersonFixture.names)
        #expect(browser.statusText == nil)
    }

    /// PV-V: an empty answer says so.
    @Test func anEmptyAnswerSaysSo() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let navigator = Navigator()
        defer { navigator.close() }
        let browser = PersonBrowserViewModel(services: PersonServices(people: OfflinePersonService(scheduler: scheduler, people: []), navigator: navigator))
        navigator.push(browser)
        scheduler.run()
        #expect(browser.statusText == "No people.")
        #expect(browser.current == nil)
    }
}

/// PV-V, PV-VM1: the detail screen shows each field of the person, and Back pops it.
@Suite struct PersonDetailTests {
    @Test func theDetailShowsEveryFieldAndGoesBack() {
        let navigator = Navigator()
        defer { navigator.close() }
        let launcher = PersonFixture.Launcher()
        navigator.push(launcher)
        let grace = PersonDetailViewModel(person: PersonViewModel(person: PersonCatalog.people[0]), navigator: navigator)
        #expect(grace.title == "Dr. Grace Hopper" && grace.nameText == "Dr. Grace Hopper")
        #expect(grace.salutationText == "Dr.")
        #expect(grace.firstNameText == "Grace" && grace.lastNameText == "Hopper")
        #expect(grace.birthdateText == "Sunday December 9, 1906")
        let ada = PersonDetailViewModel(person: PersonViewModel(person: PersonCatalog.people[1]), navigator: navigator)
        #expect(ada.salutationText == "—", "no salutation")
        let epoch = PersonDetailViewModel(person: PersonViewModel(person: PersonCatalog.people[3]), navigator: navigator)
        #expect(epoch.salutationText == "—", "an empty salutation counts as none")
        navigator.push(grace)
        grace.back()
        #expect(navigator.top === launcher)
    }
}
