import MVVM

/// The login's addresses, beside its screens: the login at `/` (with the typed user name,
/// `/?user=ada`), the welcome at `/welcome?user=ada`. The password is never in an address, so
/// the welcome's address opens the login with the user name typed: signing in again is the
/// user's to do.
public enum LoginAddresses: AppAddresses {
    public typealias Services = LoginServices

    public nonisolated static func stack(at address: Address, services: LoginServices) -> [any AnyObject & Sendable]? {
        guard address.path == [] || address.path == ["welcome"] || address.path == ["sign-up"] else { return nil }
        let login = LoginViewModel(services: services)
        if let user = address["user"] { login.userName.value = user }
        guard address.path == ["sign-up"] else { return [login] }
        let signUp = LoginSignUpViewModel(services: services)
        if let user = address["user"] { signUp.userName.value = user }
        return [login, signUp]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case let login as LoginViewModel:
            return Address(query: ["user": login.userName.value])
        case let signUp as LoginSignUpViewModel:
            return Address(["sign-up"], query: ["user": signUp.userName.value])
        case let welcome as LoginSuccessViewModel:
            return Address(["welcome"], query: ["user": welcome.user.userName])
        default:
            return nil
        }
    }
}
