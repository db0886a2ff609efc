#if WebServer
import MVVM
import Signals

/// What the account screens' view models need: the tab's accounts and its navigator.
public struct AccountServices: Sendable {
    public let account: AccountSession
    public let navigator: any NavigationService

    public init(account: AccountSession, navigator: any NavigationService) {
        self.account = account
        self.navigator = navigator
    }
}

/// The sign-in screen's view model (`/sign-in?next=/todos`): an email and a password; the sign-in
/// is enabled once both are typed; an unknown email and a wrong password get one answer; on
/// success the page loads `next` (or `/`), signed in.
public final class SignInViewModel: Sendable {
    public let title = "Sign in"
    public let email = MutableProperty("")
    public let password = MutableProperty("")
    public let emailMessage: Property<String>
    public let passwordMessage: Property<String>
    public let signIn: Action<Void, AccountUser, AccountError>
    /// Why the last sign-in failed, until the next one starts.
    public let statusText: Property<String?>
    /// Where the page goes once signed in.
    public let next: String
    private let services: AccountServices

    public init(services: AccountServices, next: String? = nil) {
        self.services = services
        let next = AccountAddresses.safeNext(next)
        self.next = next
        let email = self.email, password = self.password, account = services.account
        emailMessage = email.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "Enter your email." : "" }
        passwordMessage = password.map { $0.isEmpty ? "Enter your password." : "" }
        signIn = Action { _ in account.signIn(email: email.value, password: password.value, then: next) }
        statusText = signIn.latestFailure.map { $0?.message }
    }

    /// Opens the sign-up screen, with what was typed as its email.
    public func signUpInstead() {
        let signUp = SignUpViewModel(services: services, next: next, overSignIn: true)
        signUp.email.value = email.value
        services.navigator.push(signUp)
    }
}

/// The sign-up screen's view model (`/sign-up`): an email (its shape checked as typed) and a new
/// password (at least ``Accounts/Limits-swift.struct/minimumPasswordLength`` characters); on
/// success the new account is signed in and the page loads `next` (or `/`).
public final class SignUpViewModel: Sendable {
    public let title = "Create an account"
    public let email = MutableProperty("")
    public let password = MutableProperty("")
    public let emailMessage: Property<String>
    public let passwordMessage: Property<String>
    public let signUp: Action<Void, AccountUser, AccountError>
    public let statusText: Property<String?>
    public let next: String
    private let services: AccountServices
    /// Whether it was opened over a sign-in screen (Back returns there).
    private let overSignIn: Bool

    public convenience init(services: AccountServices, next: String? = nil) {
        self.init(services: services, next: next, overSignIn: false)
    }

    init(services: AccountServices, next: String?, overSignIn: Bool) {
        self.services = services
        self.overSignIn = overSignIn
        let next = AccountAddresses.safeNext(next)
        self.next = next
        let email = self.email, password = self.password, account = services.account
        let minimum = account.accounts.limits.minimumPasswordLength
        let accounts = account.accounts
        emailMessage = email.map { typed in
            do throws(AccountError) {
                _ = try accounts.checkedName(typed)
                return ""
            } catch {
                return error.message
            }
        }
        passwordMessage = password.map { $0.count < minimum ? "At least \(minimum) characters." : $0.utf8.count > PasswordHashing.maxPasswordBytes ? "At most \(PasswordHashing.maxPasswordBytes) bytes." : "" }
        signUp = Action { _ in account.signUp(email: email.value, password: password.value, then: next) }
        statusText = signUp.latestFailure.map { $0?.message }
    }

    /// Goes to the sign-in screen, with what was typed as its email: back to it when it is
    /// below, else a new one.
    public func signInInstead() {
        let services = self.services, typed = email.value
        if overSignIn {
            services.navigator.pop()
        } else {
            let signIn = SignInViewModel(services: services, next: next)
            signIn.email.value = typed
            services.navigator.push(signIn)
        }
    }
}

/// The account screen's view model (`/account`): who is signed in; sign out here, or everywhere
/// (every browser, every instance); change the password (which signs out everywhere else).
public final class AccountViewModel: Sendable {
    public let title = "Your account"
    public let signedInText: String
    public let currentPassword = MutableProperty("")
    public let newPassword = MutableProperty("")
    public let currentPasswordMessage: Property<String>
    public let newPasswordMessage: Property<String>
    public let changePassword: Action<Void, Void, AccountError>
    public let signOut: Action<Void, Void, AccountError>
    public let signOutEverywhere: Action<Void, Void, AccountError>
    /// What the last action said: its failure, or that the password was changed.
    public let statusText: Property<String?>

    public init(services: AccountServices) {
        let account = services.account
        signedInText = account.user.map { "Signed in as \($0.email)" } ?? "Not signed in"
        let current = currentPassword, new = newPassword
        let minimum = account.accounts.limits.minimumPasswordLength
        currentPasswordMessage = current.map { $0.isEmpty ? "Enter your current password." : "" }
        newPasswordMessage = new.map { $0.count < minimum ? "At least \(minimum) characters." : "" }
        changePassword = Action { _ in account.changePassword(current: current.value, new: new.value) }
        signOut = Action { _ in account.signOut() }
        signOutEverywhere = Action { _ in account.signOutEverywhere() }
        let changed = changePassword.outputs.map { _ -> String? in "Password changed. Your other sign-ins were ended." }
        let failed = Signal<AccountError?, Never>.merge([changePassword.latestFailure.changes, signOut.latestFailure.changes, signOutEverywhere.latestFailure.changes])
            .map { $0?.message }
        statusText = Property(initial: nil, then: Signal.merge([changed, failed]))
        changePassword.outputs.sink(value: { _ in
            current.value = ""
            new.value = ""
        }).disposed(by: bag)
    }

    private let bag = DisposeBag()
}
#endif
