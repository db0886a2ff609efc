import MVVM

/// The person app's addresses, beside its screens: the people at `/`, a person at `/1` (their
/// place in the list: they open once the people are loaded), the settings at `/settings`.
public enum PersonAddresses: @MainActor AppAddresses {
    public typealias Services = PersonServices

    @MainActor
    public static func stack(at address: Address, services: PersonServices) -> [any AnyObject & Sendable]? {
        switch (address.path.first, address.path.count) {
        case (nil, _):
            return [PersonBrowserViewModel(services: services)]
        case ("settings", 1):
            return [PersonBrowserViewModel(services: services), PersonSettingsViewModel(settings: services.settings, navigator: services.navigator)]
        case (let segment?, 1):
            guard let index = Int(segment), index >= 0 else { return nil }
            return [PersonBrowserViewModel(services: services, opening: index)]
        default:
            return nil
        }
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is PersonBrowserViewModel:
            return Address()
        case let detail as PersonDetailViewModel:
            return Address([String(detail.index)])
        case is PersonSettingsViewModel:
            return Address(["settings"])
        default:
            return nil
        }
    }
}
