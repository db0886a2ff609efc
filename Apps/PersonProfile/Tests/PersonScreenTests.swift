import MVVM
import PersonProfile
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 25: the person app driven through its screens, headless, in virtual time.
@MainActor @Suite struct PersonScreenTests {
    /// PV-V, PV-VM1: the people load when the screen shows; the card follows the highlighted
    /// person; Enter opens the detail with every field; Back returns with the same person.
    @Test func aPersonIsBrowsedOpenedAndLeft() throws {
        let fixture = PersonFixture()
        let registry = ScreenRegistry<Screen>()
        PersonScreens.register(in: registry)
        fixture.navigator.push(PersonBrowserViewModel(services: fixture.services))
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        #expect(tester.title == "Person")
        #expect(tester.contains(PersonBrowserViewModel.loadingText))
        tester.advance(by: .milliseconds(400))
        #expect(try tester.rows(of: "People").map(\.title) == ["Grace Hopper", "Ada Lovelace", "Alan Turing", "Unix Epoch"])
        #expect(tester.contains("Dr. Grace Hopper\nBorn Sunday December 9, 1906"))
        try tester.highlight(row: 1)
        #expect(tester.contains("Ada Lovelace\nBorn Sunday December 10, 1815"))
        try tester.select("Ada Lovelace")
        #expect(tester.title == "Ada Lovelace")
        #expect(tester.contains("""
            Salutation  —
            First name  Ada
            Last name   Lovelace
            Born        Sunday December 10, 1815
            """))
        try tester.press("Back")
        #expect(tester.title == "Person")
        #expect(tester.contains("Ada Lovelace\nBorn Sunday December 10, 1815"), "the same person is still highlighted")
        #expect(fixture.spy.requests.value == 1, "coming back loads nothing")
    }
}
