import Login
import MVVM
import Signals
import SignalsTesting
import Testing

/// LG: the login app, headless, in virtual time.
@Suite struct LoginViewModelTests {
    final class Fixture: Sendable {
        let scheduler = TestScheduler()
        let service: OfflineLoginService
        let navigator = Navigator()
        let viewModel: LoginViewModel

        /// Pending virtual-time work refers back to the scheduler; drop it with the fixture.
        deinit {
            navigator.close()
            scheduler.cancelAll()
        }

        init() {
            service = OfflineLoginService(scheduler: scheduler, latency: .seconds(1))
            viewModel = LoginViewModel(services: LoginServices(login: service, navigator: navigator))
            navigator.push(viewModel)
        }

        func type(_ user: String, _ password: String) {
            viewModel.userName.value = user
            viewModel.password.value = password
        }
    }

    /// LG-VM1: enabled only when both fields have at least 3 characters; false at start.
    @Test func loginIsEnabledWithThreeCharactersInEachField() {
        let fixture = Fixture()
        let enabled = Recorder<Bool, Never>()
        enabled.subscribe(to: fixture.viewModel.isLoginEnabled.signal.removeDuplicates())
        let steps: [(String, String)] = [("a", ""), ("ad", "pw"), ("ada", "pw"), ("ada", "pwd"), ("ad", "pwd"), ("ada", "longer")]
        var states: [Bool] = []
        for (user, password) in steps {
            fixture.type(user, password)
            states.append(fixture.viewModel.isLoginEnabled.value)
        }
        #expect(states == [false, false, false, true, false, true])
        #expect(enabled.recordedValues == [false, true, false, true])
    }

    /// LG-VM2: success goes on to the next screen with the user; LG-2 shows the user name and
    /// never the password, and goes back.
    @Test func successPushesTheSuccessScreen() {
        let fixture = Fixture()
        let users = fixture.scheduler.record(fixture.viewModel.loggedIn)
        fixture.type("ada", "lovelace")
        fixture.viewModel.login.execute()
        #expect(fixture.viewModel.isLoggingIn.value)
        #expect(!fixture.viewModel.isLoginEnabled.value || !fixture.viewModel.login.isEnabled.value)
        fixture.scheduler.advance(by: .seconds(1))
        #expect(users.recordedValues == [User(userName: "ada", displayName: "Ada Lovelace")])
        let success = fixture.navigator.top(LoginSuccessViewModel.self)
        #expect(success?.userNameText == "Signed in as ada")
        #expect(success?.greeting == "Welcome, Ada Lovelace!")
        #expect(!(success?.userNameText.contains("lovelace") ?? true), "never the password in clear")
        success?.back()
        #expect(fixture.navigator.top === fixture.viewModel)
    }

    /// LG-VM2 [fix]: a business failure (account needs verification) is reported as a failure.
    @Test func businessFailureIsAFailure() {
        let fixture = Fixture()
        let failures = fixture.scheduler.record(fixture.viewModel.failures)
        let errors = fixture.scheduler.record(fixture.viewModel.errors)
        fixture.type("grace", "hopper")
        fixture.viewModel.login.execute()
        fixture.scheduler.run()
        #expect(failures.recordedValues == ["This account needs verification. Check your email for the link."])
        #expect(errors.recordedValues.isEmpty)
        #expect(fixture.viewModel.statusText.value == failures.recordedValues.first)
        #expect(fixture.navigator.top === fixture.viewModel, "no navigation on failure")
        #expect(fixture.viewModel.userName.value == "grace", "the typed text stays")
    }

    /// LG-VM2 [fix]: a server failure is reported as an error, with its message.
    @Test func serverFailureIsAnError() {
        let fixture = Fixture()
        let errors = fixture.scheduler.record(fixture.viewModel.errors)
        fixture.type("alan", "turing")
        fixture.viewModel.login.execute()
        fixture.scheduler.run()
        #expect(errors.recordedValues == ["The server is unavailable. Try again in a few minutes."])
        #expect(fixture.viewModel.statusText.value == errors.recordedValues.first)
        #expect(fixture.viewModel.login.isEnabled.value, "the user can retry")
    }

    /// LG-VM2: a wrong password is a business failure; typing clears the message.
    @Test func wrongPasswordIsAFailureClearedByTyping() {
        let fixture = Fixture()
        fixture.type("ada", "wrong")
        fixture.viewModel.login.execute()
        fixture.scheduler.run()
        #expect(fixture.viewModel.statusText.value == "Wrong user name or password.")
        fixture.viewModel.password.value = "wrong2"
        #expect(fixture.viewModel.statusText.value == nil)
    }

    /// LG-VM2: the service can be told to fail, for every error path.
    @Test func forcedNetworkErrors() {
        let fixture = Fixture()
        fixture.service.failRequests(with: LoginError("No network connection."))
        let errors = fixture.scheduler.record(fixture.viewModel.errors)
        fixture.type("ada", "lovelace")
        fixture.viewModel.login.execute()
        fixture.scheduler.run()
        #expect(errors.recordedValues == ["No network connection."])
        fixture.service.failRequests(with: nil)
        fixture.viewModel.login.execute()
        fixture.scheduler.run()
        #expect(fixture.navigator.top(LoginSuccessViewModel.self) != nil)
    }

    /// LG: the whole app without a view: type, log in, see the success screen, go back.
    @Test func wholeAppLoginFlowWithoutAView() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let navigator = Navigator()
        defer { navigator.close() }
        let services = LoginServices(login: OfflineLoginService(scheduler: scheduler), navigator: navigator)
        let login = LoginViewModel(services: services)
        navigator.push(login)
        for character in "ada" { login.userName.value.append(character) }
        for character in "lovelace" { login.password.value.append(character) }
        #expect(login.isLoginEnabled.value)
        login.login.execute()
        scheduler.run()
        let success = navigator.top(LoginSuccessViewModel.self)
        #expect(success?.user.userName == "ada")
        success?.back()
        #expect(navigator.top === login)
    }
}

/// Issue 60: the login app's sign-up, with the embedded service (accounts in its memory): each
/// rule's message at its boundary, a new account signs in and opens the welcome, a taken name
/// and a server error say so.
@Suite struct LoginSignUpViewModelTests {
    final class Launcher: Sendable {}

    @Test func signUpRulesSuccessTakenAndError() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let service = OfflineLoginService(scheduler: scheduler, latency: .milliseconds(100))
        let navigator = Navigator(root: Launcher())
        defer { navigator.close() }
        let signUp = LoginSignUpViewModel(services: LoginServices(login: service, navigator: navigator))
        navigator.push(signUp)
        signUp.userName.value = "li"
        signUp.password.value = "pw"
        #expect(signUp.userNameMessage.value == "At least 3 characters" && signUp.passwordMessage.value == "At least 3 characters")
        signUp.userName.value = "lin"
        signUp.password.value = "pwd"
        #expect(signUp.userNameMessage.value == "" && signUp.passwordMessage.value == "")
        signUp.userName.value = "ada"
        signUp.signUp.execute()
        scheduler.advance(by: .seconds(1))
        #expect(signUp.statusText.value == "That user name is taken. Sign in, or choose another.")
        #expect(navigator.top(LoginSuccessViewModel.self) == nil)
        service.failRequests(with: LoginError("The server is unavailable."))
        signUp.userName.value = "lin"
        signUp.signUp.execute()
        scheduler.advance(by: .seconds(1))
        #expect(signUp.statusText.value == "The server is unavailable.")
        service.failRequests(with: nil)
        signUp.signUp.execute()
        #expect(signUp.statusText.value == nil, "a new try clears the message")
        scheduler.advance(by: .seconds(1))
        #expect(navigator.top(LoginSuccessViewModel.self)?.user.userName == "lin")
        // The new account signs in.
        let login = LoginViewModel(services: LoginServices(login: service, navigator: navigator))
        navigator.push(login)
        login.userName.value = "lin"
        login.password.value = "pwd"
        login.login.execute()
        scheduler.advance(by: .seconds(1))
        #expect(navigator.top(LoginSuccessViewModel.self)?.user.userName == "lin")
    }
}
