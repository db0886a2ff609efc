import MVVM
import Signals
import Observation

/// PV-V: the person screen's model: the catalog and the selected person.
///
/// Written the way seed 000 writes its view models for `RACObserve`: plain properties of an
/// `@Observable` object, no streams of its own. The view observes what it shows with
/// `observe(viewModel, \.current)` (the current value, then each change, on the main actor) and
/// sets `selectedIndex` as the user moves; SwiftUI on Apple platforms can use the same object
/// as it is.
@MainActor @Observable
public final class PersonBrowserViewModel: LifetimeOwner {
    public let title = "Person"
    public let people = PersonCatalog.people.map { PersonViewModel(person: $0) }
    /// The selected row. Out-of-range values select the nearest person.
    public var selectedIndex = 0

    /// The selected person, formatted.
    public var current: PersonViewModel {
        people[max(0, min(people.count - 1, selectedIndex))]
    }

    /// Ends the streams observing this view model when it goes.
    @ObservationIgnored private let token = Lifetime.Token()
    public nonisolated var lifetime: Lifetime { token.lifetime }

    public init() {}
}
