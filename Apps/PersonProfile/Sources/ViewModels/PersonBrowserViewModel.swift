import MVVM
import Signals
import Observation

/// What the person screens need: the people service, navigation, and the settings every
/// screen of the app reads.
public struct PersonServices: Sendable {
    public let people: any PersonService
    public let navigator: any NavigationService
    public let settings: PersonSettings

    public init(people: any PersonService, navigator: any NavigationService, settings: PersonSettings = PersonSettings()) {
        self.people = people
        self.navigator = navigator
        self.settings = settings
    }
}

/// PV-V: the person screen's model: the people from the service and the selected person.
///
/// Written the way seed 000 writes its view models for `RACObserve`: plain properties of an
/// `@Observable` object, no streams of its own. The view observes what it shows with
/// `observation(of: viewModel, \.current)` (the current value, then each change, on the main
/// actor), sets `selectedIndex` as the user moves and calls ``select(index:)`` on Enter; SwiftUI
/// on Apple platforms can use the same object as it is.
///
/// Lifecycle (SH-3): the people are loaded when the browser first becomes active (the navigator
/// shows it), not before; showing it again loads nothing unless the last load failed or was cut
/// short. A load in flight when the user leaves is cancelled, and a browser that is not the
/// visible screen opens no detail.
@MainActor @Observable
public final class PersonBrowserViewModel: LifetimeOwner, ViewModelLifecycleOwner {
    /// What ``statusText`` says until the people arrive.
    public static let loadingText = "Loading people…"
    /// What ``statusText`` says when the service has nobody.
    public static let emptyText = "No people."

    public let title = "Person"
    /// The people, formatted, in the service's order; empty until the first answer.
    public private(set) var people: [PersonViewModel] = []
    /// Whether a load is running.
    public private(set) var isLoading = false
    /// Why the last load failed (the error's message), until the next load starts.
    public private(set) var errorText: String?
    /// The selected row. Out-of-range values select the nearest person.
    public var selectedIndex = 0

    /// The selected person, formatted; `nil` while there are no people.
    public var current: PersonViewModel? {
        people.isEmpty ? nil : people[max(0, min(people.count - 1, selectedIndex))]
    }

    /// What the screen shows in place of the people: ``loadingText`` (also before the first
    /// load), the error's message, ``emptyText``, or `nil` once there are people.
    public var statusText: String? {
        if !people.isEmpty { return nil }
        if isLoading { return Self.loadingText }
        if let errorText { return errorText }
        return hasLoaded ? Self.emptyText : Self.loadingText
    }

    /// Active while the browser is the visible screen (the navigator drives it).
    @ObservationIgnored public nonisolated let lifecycle = ViewModelLifecycle()
    /// Whether a load has answered with the people.
    private var hasLoaded = false
    @ObservationIgnored private let services: PersonServices
    @ObservationIgnored private let request = SerialDisposable()
    @ObservationIgnored private let bag = DisposeBag()

    /// The person an address asked for (``init(services:opening:)``), opened once the people
    /// are loaded.
    private var opening: Int?
    /// The settings the browser follows (whether it shows birthdays).
    @ObservationIgnored public nonisolated let settings: PersonSettings

    /// Ends the streams observing this view model when it goes.
    @ObservationIgnored private let token = Lifetime.Token()
    public nonisolated var lifetime: Lifetime { token.lifetime }

    /// `opening`: the index of a person to open once the people are loaded (a person's address,
    /// `/1`); an index with nobody opens nothing.
    public init(services: PersonServices, opening: Int? = nil) {
        self.services = services
        settings = services.settings
        self.opening = opening
        if let opening { selectedIndex = opening }
        lifecycle.didBecomeActive.asDriver().drive { [weak self] _ in
            guard let self, !self.hasLoaded else { return }
            self.load()
        }.disposed(by: bag)
    }

    deinit {
        request.dispose()
    }

    /// Loads the people (again: a retry after a failure). Does nothing while the browser is not
    /// the visible screen or while a load runs. Leaving the screen cancels the load.
    public func load() {
        guard lifecycle.isActive.value, !isLoading else { return }
        isLoading = true
        errorText = nil
        request.inner = services.people.people()
            .take(untilInactive: lifecycle)
            .materialize()
            .asDriver()
            .drive { [weak self] event in self?.receive(event) }
    }

    /// Enter on the person at `index`: opens their ``PersonDetailViewModel``, only while the
    /// browser is the visible screen.
    public func select(index: Int) {
        guard people.indices.contains(index) else { return }
        let navigator = services.navigator
        navigator.push(PersonDetailViewModel(person: people[index], index: index, navigator: navigator), whileActive: lifecycle)
    }

    /// Opens the settings, only while the browser is the visible screen.
    public func openSettings() {
        services.navigator.push(PersonSettingsViewModel(settings: settings, navigator: services.navigator), whileActive: lifecycle)
    }

    private func receive(_ event: Event<[Person], PersonError>) {
        switch event {
        case .value(let people):
            self.people = people.map { PersonViewModel(person: $0) }
            hasLoaded = true
            if let index = opening {
                opening = nil
                select(index: index)
            }
        case .failed(let error):
            errorText = error.message
            isLoading = false
        case .completed:
            // Also when leaving the screen cut the load short: the next activation loads.
            isLoading = false
        }
    }
}
