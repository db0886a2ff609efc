#if WebServer
import MVVM
import ScreenKit
import Signals

/// The account screens, described once (every renderer draws them): sign-in, sign-up, and the
/// account (sign out, sign out everywhere, change the password). Register them beside the
/// app's own, and let ``AccountAddresses`` open them at their addresses.
///
/// ```swift
/// screens.register(SignInViewModel.self, described: AccountScreens.signIn)
/// screens.register(SignUpViewModel.self, described: AccountScreens.signUp)
/// screens.register(AccountViewModel.self, described: AccountScreens.account)
/// ```
public enum AccountScreens {
    /// An email and a password in a form whose Enter signs in; why it failed; a way to sign up.
    public static func signIn(_ viewModel: SignInViewModel) -> Screen {
        Screen(viewModel.title) {
            Form(submit: "Sign in", action: viewModel.signIn) {
                TextField("Email", text: viewModel.email, placeholder: "you@example.com").message(viewModel.emailMessage).contentType(.username)
                SecureField("Password", text: viewModel.password).message(viewModel.passwordMessage).contentType(.currentPassword)
            }
            Text(viewModel.statusText, style: .error)
            Button("Create an account") { viewModel.signUpInstead() }
        }
    }

    /// An email and a new password, each with its rule's message; why it failed.
    public static func signUp(_ viewModel: SignUpViewModel) -> Screen {
        Screen(viewModel.title) {
            Form(submit: "Create account", action: viewModel.signUp) {
                TextField("Email", text: viewModel.email, placeholder: "you@example.com").message(viewModel.emailMessage).contentType(.username)
                SecureField("Password", text: viewModel.password).message(viewModel.passwordMessage).contentType(.newPassword)
            }
            Text(viewModel.statusText, style: .error)
            Button("I have an account") { viewModel.signInInstead() }
        }
    }

    /// Who is signed in; sign out, sign out everywhere; change the password.
    public static func account(_ viewModel: AccountViewModel) -> Screen {
        Screen(viewModel.title) {
            Text(viewModel.signedInText, style: .headline)
            HStack {
                Button("Sign out", action: viewModel.signOut)
                Button("Sign out everywhere", action: viewModel.signOutEverywhere)
            }
            Form(submit: "Change password", action: viewModel.changePassword) {
                SecureField("Current password", text: viewModel.currentPassword).message(viewModel.currentPasswordMessage).contentType(.currentPassword)
                SecureField("New password", text: viewModel.newPassword).message(viewModel.newPasswordMessage).contentType(.newPassword)
            }
            Text(viewModel.statusText, style: .secondary)
        }
    }
}

/// The account screens' addresses, for an app's `AppAddresses` to hand over to:
/// `/sign-in?next=/todos`, `/sign-up?next=…`, `/account`.
///
/// ```swift
/// static func stack(at address: Address, services: AppServices) -> [any AnyObject & Sendable]? {
///     if let screens = AccountAddresses.stack(at: address, services: services.accounts) { return screens }
///     …
/// }
/// ```
public enum AccountAddresses {
    /// The screens at `address`, if it is one of the account screens'.
    /// `/account` opens above `home` (the app's first screens, for a signed-in user), so that
    /// Back from it leads into the app.
    public static func stack(at address: Address, services: AccountServices,
                             home: @autoclosure () -> [any AnyObject & Sendable] = []) -> [any AnyObject & Sendable]? {
        switch address.path {
        case ["sign-in"]: [SignInViewModel(services: services, next: address["next"])]
        case ["sign-up"]: [SignUpViewModel(services: services, next: address["next"])]
        case ["account"]: (services.account.user == nil ? [] : home()) + [AccountViewModel(services: services)]
        default: nil
        }
    }

    /// Opens the account screen above the one showing (an app's "Account" button).
    public static func openAccount(_ services: AccountServices) {
        services.navigator.push(AccountViewModel(services: services))
    }

    /// The address of an account screen's view model.
    public static func address(of viewModel: any AnyObject) -> Address? {
        switch viewModel {
        case let signIn as SignInViewModel: Address(["sign-in"], query: signIn.next == "/" ? [] : [Address.Item("next", signIn.next)])
        case let signUp as SignUpViewModel: Address(["sign-up"], query: signUp.next == "/" ? [] : [Address.Item("next", signUp.next)])
        case is AccountViewModel: Address(["account"])
        default: nil
        }
    }

    /// Where a sign-in may lead: an address of this app (`/…`, not `//…`, which names another
    /// site), or `/`.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
              next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f }) else { return "/" }
        return next
    }
}
#endif
