import Signals

/// Where the person browser gets its people. One value (everyone, in order) then completion, or
/// a ``PersonError``; disposing the subscription cancels the request.
public protocol PersonService: Sendable {
    func people() -> Signal<[Person], PersonError>
}

/// The embedded people service (the default): the catalog's people, answering after `latency`
/// on the given scheduler.
public final class OfflinePersonService: PersonService {
    private let scheduler: any Scheduler
    private let latency: Duration
    private let catalog: [Person]
    private let forcedError = Locked<PersonError?>(nil)

    /// Creates the service; answers take `latency` on `scheduler`.
    public init(scheduler: any Scheduler, latency: Duration = .milliseconds(400), people: [Person] = PersonCatalog.people) {
        self.scheduler = scheduler
        self.latency = latency
        self.catalog = people
    }

    /// Makes every following request fail with `error` (`nil` to stop), for error-path tests.
    public func failRequests(with error: PersonError?) {
        forcedError.withLock { $0 = error }
    }

    public func people() -> Signal<[Person], PersonError> {
        let answer: Signal<[Person], PersonError> = forcedError.value.map { .fail($0) } ?? .just(catalog)
        return answer.delaySubscription(for: latency, on: scheduler)
    }
}
