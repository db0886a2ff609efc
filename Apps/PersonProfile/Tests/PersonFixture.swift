import MVVM
import PersonProfile
import Signals
import SignalsTesting

/// Counts the people requests, forwarding them to the offline service.
final class SpyPersonService: PersonService {
    let base: OfflinePersonService
    let requests = Locked(0)

    init(base: OfflinePersonService) { self.base = base }

    func people() -> Signal<[Person], PersonError> {
        requests.withLock { $0 += 1 }
        return base.people()
    }
}

/// The person app on virtual time: the offline service (answering after 400 ms) behind a spy,
/// and a navigator whose first screen stands for the launcher.
final class PersonFixture: Sendable {
    final class Launcher: Sendable {}

    let scheduler = TestScheduler()
    let offline: OfflinePersonService
    let spy: SpyPersonService
    let navigator = Navigator(root: Launcher())
    let services: PersonServices

    init() {
        offline = OfflinePersonService(scheduler: scheduler, latency: .milliseconds(400))
        spy = SpyPersonService(base: offline)
        services = PersonServices(people: spy, navigator: navigator)
    }

    /// Pending virtual-time work refers back to the scheduler; drop it with the fixture.
    deinit {
        navigator.close()
        scheduler.cancelAll()
    }

    /// The catalog's names, as the browser shows them.
    static let names = PersonCatalog.people.map { PersonViewModel(person: $0).nameText }
}
