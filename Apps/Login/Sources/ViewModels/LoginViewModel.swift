import MVVM
import Signals

/// What the login view models need: the service and navigation (seed 000's services object).
public struct LoginServices: Sendable {
    public let login: any LoginService
    public let navigator: any NavigationService

    public init(login: any LoginService, navigator: any NavigationService) {
        self.login = login
        self.navigator = navigator
    }
}

/// LG-1, LG-VM1, LG-VM2: the login screen's view model (seed 002).
///
/// Inputs: `userName`, `password`. `isLoginEnabled` holds when both have at least 3 characters
/// (false at start); `userNameMessage` and `passwordMessage` say so for each field ("At least 3
/// characters", empty once it has them), which the screen shows under the field once it is used. The `login` action reports one of three outcomes on three outputs:
/// `loggedIn` (and pushes the success screen), `failures` (the request was fine but a rule
/// refused it), `errors` (network or server). `statusText` shows the last failure or error until
/// the user types again or retries; the typed text is never cleared.
///
/// Lifecycle: a login in flight is cancelled when the screen goes away, and its answer opens
/// nothing (the welcome screen appears only over a visible login screen).
public final class LoginViewModel: ViewModelLifecycleOwner {
    public let title = "Login"
    public let lifecycle = ViewModelLifecycle()
    public let userName = MutableProperty("")
    public let password = MutableProperty("")
    public let isLoginEnabled: Property<Bool>
    /// LG-VM1's rule for the user name, as a message: empty while it holds.
    public let userNameMessage: Property<String>
    /// LG-VM1's rule for the password, as a message: empty while it holds.
    public let passwordMessage: Property<String>
    /// The fewest characters a user name or a password has (LG-VM1).
    public static let minimumLength = 3
    public let login: Action<Void, LoginOutcome, LoginError>
    public let isLoggingIn: Property<Bool>
    public let statusText: Property<String?>

    /// LG-VM2: signed in.
    public let loggedIn: Signal<User, Never>
    /// LG-VM2: a business rule refused the login; the text says why.
    public let failures: Signal<String, Never>
    /// LG-VM2: the request failed; the text says what happened.
    public let errors: Signal<String, Never>

    private let status = MutableProperty<String?>(nil)
    private let bag = DisposeBag()
    private let services: LoginServices

    /// Opens the sign-up screen, with the typed user name.
    public func createAccount() {
        let signUp = LoginSignUpViewModel(services: services)
        signUp.userName.value = userName.value
        services.navigator.push(signUp, from: self)
    }

    public init(services: LoginServices) {
        self.services = services
        let userName = self.userName
        let password = self.password
        let minimum = Self.minimumLength
        let enabled = userName.readOnly.combineLatest(password.readOnly) { $0.count >= minimum && $1.count >= minimum }
        isLoginEnabled = enabled
        userNameMessage = userName.map { $0.count < minimum ? "At least \(minimum) characters" : "" }
        passwordMessage = password.map { $0.count < minimum ? "At least \(minimum) characters" : "" }
        let service = services.login
        let lifecycle = self.lifecycle
        login = Action(enabledIf: enabled) { _ in
            service.login(userName: userName.value, password: password.value).take(untilInactive: lifecycle)
        }
        isLoggingIn = login.isExecuting
        statusText = status.readOnly

        loggedIn = login.outputs.compactMap { outcome in
            if case .success(let user) = outcome { return user }
            return nil
        }
        failures = login.outputs.compactMap { outcome in
            if case .failure(let reason) = outcome { return reason }
            return nil
        }
        errors = login.errors.map(\.message)

        let status = self.status
        let navigator = services.navigator
        loggedIn.sink(value: { [weak self] user in
            status.value = nil
            guard let self else { return }
            navigator.push(LoginSuccessViewModel(user: user, navigator: navigator), from: self)
        }).disposed(by: bag)
        failures.merge(with: errors).sink(value: { status.value = $0 }).disposed(by: bag)
        // Typing again clears the message.
        userName.changes.merge(with: password.changes).sink(value: { _ in status.value = nil }).disposed(by: bag)
    }
}

/// The sign-up screen's view model: a user name (the seed's rule: at least 3 characters) and a
/// password (at least the service's ``LoginService/newPasswordMinimum``), each rule's message
/// shown under its field once used; on success the welcome screen, as after a login; a failure
/// (the name is taken) or an error says why until the next try.
public final class LoginSignUpViewModel: Sendable {
    public let title = "Create an account"
    public let userName = MutableProperty("")
    public let password = MutableProperty("")
    public let userNameMessage: Property<String>
    public let passwordMessage: Property<String>
    public let signUp: Action<Void, LoginOutcome, LoginError>
    public let statusText: Property<String?>
    private let bag = DisposeBag()

    public init(services: LoginServices) {
        let userName = self.userName, password = self.password, service = services.login
        let minimum = LoginViewModel.minimumLength, passwordMinimum = service.newPasswordMinimum
        userNameMessage = userName.map { $0.count < minimum ? "At least \(minimum) characters" : "" }
        passwordMessage = password.map { $0.count < passwordMinimum ? "At least \(passwordMinimum) characters" : "" }
        signUp = Action { _ in service.signUp(userName: userName.value, password: password.value) }
        let failures = signUp.outputs.compactMap { outcome -> String? in
            if case .failure(let reason) = outcome { return reason }
            return nil
        }
        statusText = Property(initial: nil, then: Signal.merge([
            failures.map { Optional($0) },
            signUp.errors.map { Optional($0.message) },
            signUp.isExecuting.changes.filter { $0 }.map { _ in nil },
        ]))
        let navigator = services.navigator
        signUp.outputs.sink(value: { [weak self] outcome in
            guard case .success(let user) = outcome, let self else { return }
            navigator.push(LoginSuccessViewModel(user: user, navigator: navigator), from: self)
        }).disposed(by: bag)
    }
}

/// LG-2: the screen after a successful login. Shows who signed in, never the password.
public final class LoginSuccessViewModel: Sendable {
    public let title = "Welcome"
    public let user: User
    public let greeting: String
    public let userNameText: String
    private let navigator: any NavigationService

    public init(user: User, navigator: any NavigationService) {
        self.user = user
        self.navigator = navigator
        greeting = "Welcome, \(user.displayName)!"
        userNameText = "Signed in as \(user.userName)"
    }

    /// Goes back to the login screen.
    public func back() {
        navigator.pop()
    }
}
