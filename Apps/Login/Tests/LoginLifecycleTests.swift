import Login
import MVVM
import Signals
import SignalsTesting
import Testing

/// Issue 16/18: the view-model lifecycle at work in the Login app.
@Suite struct LoginLifecycleTests {
    final class Launcher: Sendable {}

    /// Esc while a login is in flight: the request is cancelled, and the welcome screen never
    /// appears over the launcher ~1 s later.
    @Test func leavingDuringALoginCancelsItAndOpensNothing() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let navigator = Navigator(root: Launcher())
        defer { navigator.close() }
        let login = LoginViewModel(services: LoginServices(login: OfflineLoginService(scheduler: scheduler, latency: .seconds(2)), navigator: navigator))
        navigator.push(login)
        login.userName.value = "ada"
        login.password.value = "lovelace"
        login.login.execute()
        scheduler.advance(by: .seconds(1))
        #expect(login.isLoggingIn.value)
        navigator.pop()  // Esc
        #expect(!login.isLoggingIn.value, "the request is cancelled with the screen")
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top(Launcher.self) != nil)
        #expect(navigator.top(LoginSuccessViewModel.self) == nil)

        // Back on the login screen, the same login goes through (the control case).
        navigator.push(login)
        login.login.execute()
        scheduler.advance(by: .seconds(5))
        #expect(navigator.top(LoginSuccessViewModel.self)?.user.userName == "ada")
    }
}
