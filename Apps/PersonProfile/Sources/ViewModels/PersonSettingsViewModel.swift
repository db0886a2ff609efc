import MVVM
import Signals

/// The person app's settings, shared by its screens (``PersonServices/settings``): one per app
/// run, or per browser tab.
public final class PersonSettings: Sendable {
    /// Whether the browser shows the highlighted person's birthday under their name (on by
    /// default).
    public let showsBirthdays = MutableProperty(true)

    public init() {}
}

/// The settings screen: a toggle for the browser's birthdays, and Back.
public final class PersonSettingsViewModel: Sendable {
    public let title = "Settings"
    public let settings: PersonSettings
    private let navigator: any NavigationService

    public init(settings: PersonSettings, navigator: any NavigationService) {
        self.settings = settings
        self.navigator = navigator
    }

    /// Back to the people.
    public func back() {
        navigator.pop()
    }
}
